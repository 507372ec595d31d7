/* Club nights: the club page, the organiser page, the room display and the phone check-in. */
"use strict";
const SKClub = {};

SKClub.fmt = (x) => (x === null || x === undefined) ? "-" : (Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100));

SKClub.standingsHTML = (rows) => `<tr><th>#</th><th>Player</th><th>Points</th><th>Games</th><th>Wins</th><th>Score</th></tr>` +
  rows.map((s) => `<tr data-player="${SK.esc(s.player)}"><td>${s.rank}</td><td><span style="color:${SK.esc(s.colour)}">&#9679;</span> ${SK.esc(s.player)}${s.dropped ? ' <span class="muted">(dropped out)</span>' : ""}</td><td class="points">${SKClub.fmt(s.points)}</td><td>${s.games}</td><td>${s.wins}</td><td>${SKClub.fmt(s.score)}</td></tr>`).join("");

SKClub.tableHTML = (t, organiser) => {
  const status = t.finished ? `<b class="ok">finished: ${SK.esc(t.winner || t.leader || "")} won</b>`
    : (t.table_id ? `${t.hand_no ? `hand ${t.hand_no}` : "first hand not dealt"}${t.leader ? ` &middot; leading: <b>${SK.esc(t.leader)}</b>` : ""}` : `<span class="muted">seated, not started</span>`);
  const players = t.players.map((p) => `<li data-seat="${SK.esc(p.name)}"><span style="color:${SK.esc(p.colour)}">&#9679;</span> ${SK.esc(p.name)}${p.score === null ? "" : ` <b>${SKClub.fmt(p.score)}</b>`}</li>`).join("");
  const links = organiser && t.urls ? `<div class="row"><a class="btn" target="_blank" href="${SK.esc(t.urls.keeper)}">Keeper</a><a class="btn" target="_blank" href="${SK.esc(t.urls.display)}">Display</a></div>` : "";
  return `<div class="board club-table" data-table="${t.no}" data-finished="${t.finished}"><h3>Table ${t.no}</h3><div class="table-status">${status}</div><ul>${players}</ul>${links}</div>`;
};

SKClub.roundTitle = (room) => {
  const r = room.round, total = room.event.rounds;
  if (room.finished) return `Final standings (${total} rounds)`;
  if (!r) return `${room.checked_in} checked in &middot; round 1 of ${total} not seated yet`;
  return `Round ${r.no} of ${total}: ${({seated: "seated", running: "playing", finished: "finished"})[r.status]}`;
};

/* the round clock, counting down from the server's ends_at (corrected for this device's clock) */
SKClub.clock = (el) => {
  let endsAt = null, offset = 0;
  const tick = () => {
    if (!endsAt) { el.textContent = ""; return; }
    const left = Math.max(0, Math.round(endsAt - (Date.now() / 1000 + offset)));
    el.textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "time!";
  };
  setInterval(tick, 1000);
  return (room) => { endsAt = room.round && room.round.status === "running" ? room.round.ends_at : null; offset = typeof room.now === "number" ? room.now - Date.now() / 1000 : 0; tick(); };
};

SKClub.follow = (eventId, onRoom) => {
  const dot = SK.$("#live");
  const src = new EventSource(`/api/club/events/${encodeURIComponent(eventId)}/stream`);
  src.addEventListener("open", () => { if (dot) dot.classList.add("on"); });
  src.addEventListener("error", () => { if (dot) dot.classList.remove("on"); });
  src.addEventListener("room", (m) => onRoom(JSON.parse(m.data)));
  return src;
};

/* "ace=high goal=500 wild_scoring=true" -> {ace: "high", goal: 500, wild_scoring: true} */
SKClub.options = (text) => Object.fromEntries(text.split(/\s+/).filter((w) => w.includes("=")).map((w) => {
  const [k, ...rest] = w.split("="), v = rest.join("=");
  return [k, v === "true" ? true : v === "false" ? false : (v !== "" && !isNaN(Number(v)) ? Number(v) : v)];
}));

SKClub.error = (sel, r) => { SK.$(sel).innerHTML = r.ok ? "" : `<div class="refusal">${SK.esc(r.data.error || "refused")}</div>`; return r.ok; };

SKClub.roomPage = (boot) => {
  const clock = SKClub.clock(SK.$("#clock"));
  SKClub.follow(boot.event_id, (room) => {
    SK.$("#round-title").innerHTML = SKClub.roundTitle(room);
    SK.$("#checkin-qr").hidden = !!(room.round && room.round.no > 1) || room.finished;
    SK.$("#tables").innerHTML = room.tables.map((t) => SKClub.tableHTML(t, false)).join("") +
      (room.byes.length ? `<div class="board"><h3>Bye</h3>${room.byes.map(SK.esc).join(", ")}</div>` : "");
    SK.$("#standings").innerHTML = SKClub.standingsHTML(room.standings);
    const top = room.standings[0];
    SK.$("#winner").innerHTML = room.finished && top ? `<div class="winner-banner">${SK.esc(top.player)} wins the night!</div>` : "";
    document.body.dataset.round = room.round ? `${room.round.no}-${room.round.status}` : "none";
    clock(room);
  });
};

SKClub.organiserPage = (boot) => {
  const base = `/api/club/events/${boot.event_id}`;
  const clock = SKClub.clock(SK.$("#clock"));
  let view = null;
  const load = async () => {
    const r = await SK.api("GET", base);
    if (!SKClub.error("#round-error", r)) return;
    view = r.data; render();
  };
  const render = () => {
    const v = view, r = v.round;
    SK.$("#round-title").innerHTML = SKClub.roundTitle(v);
    SK.$("#checkin-link").textContent = v.urls.checkin;
    SK.$("#organiser-link").textContent = v.urls.organiser_link;
    SK.$("#players").innerHTML = v.players.map((p) => `<li data-player="${SK.esc(p.name)}"><span style="color:${SK.esc(p.colour)}">&#9679;</span> ${SK.esc(p.name)}${p.late ? ' <span class="chip">late</span>' : ""}${p.dropped ? ' <span class="chip">dropped out</span>' : ""} <button data-drop="${p.id}" data-dropped="${!p.dropped}">${p.dropped ? "Plays again" : "Drop out"}</button> <button data-remove="${p.id}" title="a check-in made by mistake">Remove</button></li>`).join("");
    const next = r ? (r.status === "finished" ? r.no + 1 : r.no) : 1;
    const actions = [];
    if (!v.finished && (!r || r.status !== "running")) actions.push(`<button id="seat">${r && r.status === "seated" ? `Seat round ${next} again` : `Seat round ${next}`}</button>`);
    if (r && r.status === "seated") {
      const names = v.tables.flatMap((t) => t.players.map((p) => p.name)).concat(v.byes);
      const opts = names.map((n) => `<option>${SK.esc(n)}</option>`).join("");
      actions.push(`<button class="primary" id="start">Start round ${r.no}</button>`,
        `<label>Swap<select id="swap-a">${opts}</select></label><label>with<select id="swap-b">${opts}</select></label><button id="swap">Swap seats</button>`);
    }
    if (r && r.status === "running") actions.push(`<button class="danger" id="end">End round ${r.no} now (last complete hands count)</button>`);
    if (v.finished) actions.push(`<b>The night is over: final standings below.</b>`);
    SK.$("#round-actions").innerHTML = actions.join("");
    SK.$("#tables").innerHTML = `<div class="boards">${v.tables.map((t) => SKClub.tableHTML(t, true)).join("")}${v.byes.length ? `<div class="board"><h3>Bye</h3>${v.byes.map(SK.esc).join(", ")}</div>` : ""}</div>`;
    SK.$("#standings").innerHTML = SKClub.standingsHTML(v.standings);
    clock(v);
  };
  const post = async (button, url, body, errorAt) => SK.busy(button, async () => {
    const r = await SK.api("POST", url, body);
    if (SKClub.error(errorAt, r)) await load();
    return r;
  });
  SK.$("#checkin").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = SK.$("#checkin-name"), name = input.value;
    input.value = "";  // ready for the next name at once; given back if refused
    input.focus();
    const r = await post(SK.$("#checkin-add"), `${base}/checkins`, {name}, "#checkin-error");
    if ((!r || !r.ok) && !input.value) input.value = name;  // refused, or not sent (busy)
  });
  SK.$("#players").addEventListener("click", async (ev) => {
    const b = ev.target.closest("button[data-drop]");
    if (b) post(b, `${base}/players/${b.dataset.drop}`, {dropped: b.dataset.dropped === "true"}, "#checkin-error");
    const x = ev.target.closest("button[data-remove]");
    if (x) await SK.busy(x, async () => { if (SKClub.error("#checkin-error", await SK.api("DELETE", `${base}/players/${x.dataset.remove}`))) await load(); });
  });
  SK.$("#round-actions").addEventListener("click", (ev) => {
    const b = ev.target.closest("button"); if (!b || !view) return;
    const r = view.round;
    if (b.id === "seat") post(b, `${base}/rounds`, {}, "#round-error");
    if (b.id === "start") post(b, `${base}/rounds/${r.no}/start`, {}, "#round-error");
    if (b.id === "end") post(b, `${base}/rounds/${r.no}/end`, {}, "#round-error");
    if (b.id === "swap") post(b, `${base}/rounds/${r.no}/swap`, {a: SK.$("#swap-a").value, b: SK.$("#swap-b").value}, "#round-error");
  });
  SKClub.follow(boot.event_id, () => load());
};

SKClub.checkinPage = (boot) => {
  const url = `/api/club/events/${boot.event_id}/checkins`;
  let known = null;
  try { known = JSON.parse(localStorage.getItem("sk_member") || "null"); } catch (e) { known = null; }
  const showKnown = () => { SK.$("#known").hidden = !known; SK.$("#checkin").hidden = !!known; if (known) SK.$("#known-name").textContent = known.name; };
  const done = (r) => {
    if (!SKClub.error("#checkin-error", r)) return;
    known = {name: r.data.name, link: r.data.link};
    localStorage.setItem("sk_member", JSON.stringify(known));
    SK.$("#known").hidden = true; SK.$("#checkin").hidden = true;
    SK.$("#done").innerHTML = `<div class="okbox">${SK.esc(r.data.name)}, you are checked in. The room display shows your table when the round is seated.</div><p>Your personal link (your record, and one-tap check-in next time): <a class="link-text" href="${SK.esc(r.data.url)}">${SK.esc(r.data.url)}</a></p>`;
  };
  SK.$("#checkin").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    done(await SK.busy(SK.$("#checkin-new"), () => SK.api("POST", url, {name: SK.$("#name").value, colour: SK.$("#colour").value, t: boot.t})));
  });
  SK.$("#checkin-known").addEventListener("click", async (ev) => done(await SK.busy(ev.target, () => SK.api("POST", url, {member: known.link, t: boot.t}))));
  SK.$("#not-me").addEventListener("click", () => { known = null; localStorage.removeItem("sk_member"); showKnown(); });
  showKnown();
  SKClub.follow(boot.event_id, (room) => {  // where this phone's player sits, once seated
    const el = SK.$("#my-table"), me = known && known.name;
    const t = me && room.tables.find((x) => x.players.some((p) => p.name === me));
    if (t) el.innerHTML = `<div class="yourturn">Round ${room.round.no}: table ${t.no}</div><p>with ${t.players.filter((p) => p.name !== me).map((p) => SK.esc(p.name)).join(", ")}</p>`;
    else if (me && room.byes.includes(me)) el.innerHTML = `<div class="okbox">Round ${room.round.no}: you have a bye</div>`;
    else el.innerHTML = "";
  });
};

SKClub.clubPage = () => {
  const boot = SK.boot;
  SK.$("#nights").innerHTML = boot.events.map((e) => `<li><b>${SK.esc(e.name)}</b> <span class="muted">${new Date(e.created_at * 1000).toLocaleDateString()} &middot; ${e.rounds_played}/${e.rounds} rounds</span> <a href="/club/events/${e.id}/room">room</a> <a href="/club/events/${e.id}">organiser</a></li>`).join("") || `<li class="muted">No nights yet.</li>`;
  SK.$("#records").innerHTML = `<tr><th>Player</th><th>Nights</th><th>Games</th><th>Wins</th><th>Win rate</th><th>Placement avg</th><th>Best hand</th></tr>` +
    boot.records.map((r) => `<tr data-player="${SK.esc(r.player)}"><td><a href="/club/players/${r.member}"><span style="color:${SK.esc(r.colour)}">&#9679;</span> ${SK.esc(r.player)}</a></td><td>${r.events}</td><td>${r.games}</td><td>${r.wins}</td><td>${Math.round(r.win_rate * 100)}%</td><td>${SKClub.fmt(r.placement_average)}</td><td>${SKClub.fmt(r.best_hand)}</td></tr>`).join("");
  const form = SK.$("#new-night"), perRound = SK.$("#round-games");
  const roundGames = () => {
    const f = form.elements, n = Math.max(1, Math.min(20, Number(f.rounds.value) || 1));
    perRound.hidden = !f.per_round.checked;
    const kept = Array.from(perRound.querySelectorAll("select"), (s) => s.value);
    perRound.innerHTML = Array.from({length: n}, (_, i) => `<label>Round ${i + 1}<select data-round-game="${i + 1}">${f.game.innerHTML}</select></label>`).join("");
    perRound.querySelectorAll("select").forEach((s, i) => { s.value = kept[i] || f.game.value; });
  };
  form.elements.per_round.addEventListener("change", roundGames);
  form.elements.rounds.addEventListener("input", () => { if (form.elements.per_round.checked) roundGames(); });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target.elements;
    const body = {name: f.name.value, game: f.game.value, rounds: Number(f.rounds.value), seats: Number(f.seats.value),
      odd: f.odd.value, teams: f.teams.checked, scoring: {mode: f.mode.value, points: f.points.value.trim().split(/[\s,]+/).filter(Boolean).map(Number)}};
    if (f.minutes.value) body.minutes = Number(f.minutes.value);
    const options = SKClub.options(f.options.value);
    body.options = options;
    if (f.per_round.checked) { delete body.game; body.games = Array.from(perRound.querySelectorAll("select"), (s) => ({game: s.value, options: s.value === f.game.value ? options : {}})); }
    const r = await SK.busy(SK.$("#create-night"), () => SK.api("POST", "/api/club/events", body));
    if (SKClub.error("#night-error", r)) location.href = r.data.urls.organiser;
  });
};
