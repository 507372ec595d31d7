/* History page: per-hand deltas, a score-over-time chart (SVG) and the full event log. */
"use strict";
(() => {
  const t = new SK.Table(SK.boot, () => load());
  const amend = new SK.Amend(t, () => load());
  let timer = null;
  // Tong-Its totals are chips won (its lower_wins is about deadwood): more is better there
  const lowerWins = () => !!t.state.lowest_first;
  function chart(points, boards) {
    if (points.length < 2) return `<p class="muted">The chart starts with the first action.</p>`;
    const W = 900, H = 300, L = 50, B = 24, all = points.flatMap((p) => Object.values(p.scores));
    const lo = Math.min(0, ...all), hi = Math.max(10, ...all), n = points.length - 1;
    const x = (i) => L + (W - L - 10) * i / n, y = (v) => 24 + (H - B - 24) * (hi - v) / (hi - lo);
    let s = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Scores over time: ${SK.esc(boards.map((b) => `${b.owner}, ${b.score}`).join("; "))}" style="width:100%;height:auto;background:#0d1218;border-radius:12px">`;
    [lo, 0, hi].forEach((v) => { s += `<line x1="${L}" x2="${W - 10}" y1="${y(v)}" y2="${y(v)}" stroke="#2f3b4a"/><text x="${L - 6}" y="${y(v) + 4}" fill="#9aa8b8" font-size="12" text-anchor="end">${v}</text>`; });
    boards.forEach((b, k) => {
      const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.scores[b.owner] || 0).toFixed(1)}`).join("");
      const mark = SK.MARKS[k % SK.MARKS.length];  // the board's shape at the line's end
      s += `<path d="${d}" fill="none" stroke="${SK.esc(b.colour)}" stroke-width="3"/>${SK.markShape(mark, x(n), y(b.score), 7, `fill="${SK.esc(b.colour)}" stroke="#fff" stroke-width="1.5" data-mark="${mark}"`)}<text x="${W - 22}" y="${y(b.score) - 8}" fill="#eef2f7" font-size="13" text-anchor="end">${SK.esc(b.owner)} ${b.score}</text>`;
    });
    return s + `<text x="${L}" y="${H - 6}" fill="#9aa8b8" font-size="12">update 0</text><text x="${W - 10}" y="${H - 6}" fill="#9aa8b8" font-size="12" text-anchor="end">update ${n}</text></svg>`;
  }
  /* the event log, newest first: what each event did to the scores; an undone event struck out
     with the undo that took it back; a Toss with the card it captured; an amended event kept
     as entered, with the amendment that superseded it (who, when, why) */
  function logHTML(events, notes, lowerWins) {
    const sign = (n) => `${n > 0 ? "+" : ""}${n}`, undoes = {};
    Object.entries(notes).forEach(([seq, n]) => { if (n.undone_by) undoes[n.undone_by] = seq; });
    return `<tr><th>#</th><th>Time</th><th>Who</th><th>What</th><th>Points</th></tr>` + events.slice().reverse().map((x) => {
      const n = notes[String(x.seq)] || {}, pts = Object.entries(n.points || {});
      const what = x.event.type === "undo" && undoes[x.seq] ? `Undo of #${undoes[x.seq]}` : SK.describe(n.captured ? {...x.event, captured: n.captured} : x.event);
      const cls = n.undone_by ? "undone" : n.removed_by ? "undone removed" : n.amended_by ? "amended" : "";
      return `<tr data-seq="${x.seq}"${cls ? ` class="${cls}"` : ""}><td>${x.seq}</td><td>${new Date(x.at * 1000).toLocaleTimeString()}</td><td>${SK.esc(x.by)}</td>
        <td>${what}${n.undone_by ? ` <span class="muted" data-undone>(undone by #${n.undone_by})</span>` : ""}${n.amended_by ? ` <span class="muted" data-amended>(amended by ${n.amended_by.map((a) => `#${a}`).join(", ")})</span>` : ""}${n.removed_by ? ` <span class="muted" data-removed>(removed by amendment #${n.removed_by})</span>` : ""}${amend.button(x, n)}</td>
        <td data-points>${pts.map(([o, d]) => `<span class="${SK.tone(d, lowerWins)}">${SK.esc(o)} ${sign(d)}</span>`).join(", ")}</td></tr>`;
    }).join("");
  }
  async function load() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const [h, e] = await Promise.all([SK.api("GET", `/api/tables/${t.id}/history`), SK.api("GET", `/api/tables/${t.id}/events`)]);
      if (!h.ok || !e.ok) return;
      const owners = h.data.boards.map((b) => b.owner);
      amend.events = e.data.events; amend.notes = h.data.notes || {};
      SK.$("#chart").innerHTML = chart(h.data.timeline || h.data.points, h.data.boards);
      SK.$("#hands").innerHTML = h.data.hands.length ? `<table class="grid"><tr><th>Hand</th>${owners.map((o) => `<th class="num">${SK.esc(o)}</th>`).join("")}</tr>` +
        h.data.hands.map((x) => `<tr data-hand="${x.hand_no}"><td>${x.hand_no}${amend.handButton(x.hand_no, h.data.timeline)}</td>${owners.map((o) => { const d = (x.deltas || {})[o] || 0; return `<td class="num ${SK.tone(d, lowerWins())}">${d > 0 ? "+" : ""}${d}</td>`; }).join("")}</tr>`).join("") +
        `<tr><th>Total</th>${h.data.boards.map((b) => `<th class="num">${b.score}</th>`).join("")}</tr></table>` : `<p class="muted">No hand finished yet.</p>`;
      SK.$("#log").innerHTML = logHTML(e.data.events, h.data.notes || {}, lowerWins());
      amend.openLinked(h.data.timeline);
    }, 150);
  }
  load();
})();
