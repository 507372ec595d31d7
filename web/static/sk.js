/* Toss Scorekeeper: shared page code (API calls, live stream, peg boards, card picker). */
"use strict";
const SK = {};

SK.SUITS = [["cl", "\u2663", "black"], ["sp", "\u2660", "black"], ["he", "\u2665", "red"], ["di", "\u2666", "red"],
            ["cr", "\u271A", "gold"], ["or", "\u25C9", "gold"], ["ca", "\u265C", "blue"], ["sh", "\u2B1F", "blue"]];
SK.SUIT = Object.fromEntries(SK.SUITS.map(([c, s, col]) => [c, {sym: s, colour: col}]));
/* the cards' words, served by the page from scorekeeper/cards.py: each suit's name and each
   card code's name for people ("7 of hearts"), read by screen readers in place of the symbols */
SK.CARD_WORDS = (() => { const el = document.getElementById("card-words"); return el ? JSON.parse(el.textContent) : {suits: {}, suit_plurals: {}, names: {}}; })();
SK.SUIT_NAMES = SK.CARD_WORDS.suits;
SK.cardName = (code) => SK.CARD_WORDS.names[code] || String(code);
SK.RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
SK.JOKERS = [["boss", "Boss"], ["jk-black", "Black J"], ["jk-red", "Red J"], ["jk-gold", "Gold J"], ["jk-blue", "Blue J"], ["null", "Null"]];

SK.esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
SK.$ = (sel, root) => (root || document).querySelector(sel);
SK.$$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
SK.boot = (() => { const el = document.getElementById("boot"); return el ? JSON.parse(el.textContent) : null; })();

SK.toast = (msg, bad) => {
  const t = SK.$("#toast"); if (!t) return;
  t.textContent = msg; t.className = bad ? "bad" : ""; t.hidden = false;
  clearTimeout(SK._toastTimer); SK._toastTimer = setTimeout(() => { t.hidden = true; }, bad ? 6000 : 2500);
};

SK.api = async (method, url, body) => {
  const opts = {method, headers: {"Accept": "application/json"}, credentials: "same-origin"};
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(url, opts); } catch (e) { return {ok: false, status: 0, data: {error: "no connection to the scorekeeper: check the Wi-Fi"}}; }
  let data = {};
  try { data = await res.json(); } catch (e) { data = {error: res.statusText}; }
  return {ok: res.ok, status: res.status, data};
};

/* A page's action id: made once per action the user starts, sent with every try of it, so
   that the server stores a double tap or a retry once and answers the repeat. */
SK.newId = () => { const a = new Uint8Array(12); crypto.getRandomValues(a); return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join(""); };
/* one write at a time from a button: disabled while in flight (a double tap sends nothing) */
SK.busy = async (button, work) => {
  if (button && button.disabled) return null;
  if (button) button.disabled = true;
  try { return await work(); } finally { if (button) button.disabled = false; }
};
/* what a write's reply says when it was not new: a repeat (already stored), or stale (another
   device wrote first: what it did, so the keeper need not enter anything again blindly) */
SK.repeatHTML = (data) => `<div class="okbox" data-repeat>Already stored as update ${data.seq}: ${SK.describe(data.event)}. Nothing new was stored.</div>`;
SK.staleHTML = (data) => {
  const missed = (data.missed || []).map((x) => `<li><span class="seq">#${x.seq}</span>${SK.describe(x.event)}${x.by && x.by !== "keeper" ? ` <span class="muted">(${SK.esc(x.by)})</span>` : ""}</li>`).join("");
  const turn = data.state && data.state.phase === "playing" && data.state.turn ? ` It is now <b>${SK.esc(data.state.turn)}</b>'s turn.` : "";
  return `<div class="refusal" data-stale>Not stored: another device entered this meanwhile:<ul class="ticker">${missed}</ul>${turn} Your entry was not stored; it is still in the form if it is still needed.</div>`;
};

/* POST one file as multipart form data; replies like SK.api */
SK.upload = async (url, field, file, tooLarge) => {
  const form = new FormData();
  form.append(field, file, file.name || "photo.jpg");
  let res;
  try { res = await fetch(url, {method: "POST", body: form, credentials: "same-origin", headers: {"Accept": "application/json"}}); } catch (e) { return {ok: false, status: 0, data: {error: "no connection to the scorekeeper: check the Wi-Fi"}}; }
  let data;
  try { data = await res.json(); } catch (e) { data = {error: res.status === 413 ? tooLarge : res.statusText}; }
  return {ok: res.ok, status: res.status, data};
};
/* a photo's cards named by the server (the page's cookie carries the token) */
SK.photoTooLarge = (file, maxBytes) => (maxBytes && file.size > maxBytes
  ? `the photo is ${(file.size / 1048576).toFixed(1)} MB; the limit is ${Math.round(maxBytes / 1048576)} MB: send the phone's normal photo size` : null);
SK.recognizePhoto = (tableId, file) => SK.upload(`/api/tables/${tableId}/photos`, "photo", file, "the photo is too large");

/* the keeper's "new join code" button */
SK.rotateJoin = async (tableId) => {
  const r = await SK.api("POST", `/api/tables/${tableId}/join-token`, {});
  if (r.ok) { SK.$("#join-link").href = r.data.join_url; SK.$("#qr img").src = `/api/tables/${tableId}/qr.svg?v=${Date.now()}`; SK.toast("New join code: the old QR code no longer works"); }
};

/* the keeper's seats: who holds each, phones asking for a taken seat (approve or refuse),
   freeing a seat, and a seat's own link as a QR code */
SK.seatsHTML = (meta, tableId) => {
  const seats = (meta.seats || []).map((x) => `<span class="seat" data-seat-row="${SK.esc(x.player)}"><span class="chip${x.claimed ? " ok" : ""}">${SK.esc(x.player)}${x.claimed ? " \u2714" : ""}</span>${x.claimed
    ? `<button type="button" data-free-seat="${SK.esc(x.player)}" title="the phone holding it stops following">Free</button>` : ""}<button type="button" data-seat-link="${SK.esc(x.player)}" title="a QR code that opens this seat on one phone">Link</button></span>`).join(" ");
  const asks = (meta.seat_requests || []).map((q) => `<div class="refusal seat-ask" data-seat-request="${q.id}">A phone asks for <b>${SK.esc(q.player)}</b>'s seat, which another phone holds.
    <button type="button" class="primary" data-approve-seat="${q.id}">Give it to the new phone</button><button type="button" data-refuse-seat="${q.id}">Refuse</button></div>`).join("");
  return asks + seats + `<div id="seat-qr" data-table="${SK.esc(tableId)}"></div>`;
};
SK.onSeats = (t) => SK.$("#seats").addEventListener("click", async (ev) => {
  const b = ev.target.closest("button"); if (!b) return;
  const base = `/api/tables/${t.id}`;
  if (b.dataset.seatLink) {
    SK.$("#seat-qr").innerHTML = `<p>${SK.esc(b.dataset.seatLink)}'s own link: scan it with that player's phone only.</p><div class="qr"><img alt="seat QR code" src="${base}/seats/${encodeURIComponent(b.dataset.seatLink)}/qr.svg?v=${Date.now()}"></div>`;
    return;
  }
  let r = null;
  if (b.dataset.freeSeat && confirm(`Free ${b.dataset.freeSeat}'s seat? The phone holding it stops following; the next phone to tap the seat takes it.`)) r = await SK.busy(b, () => SK.api("POST", `${base}/seats/${encodeURIComponent(b.dataset.freeSeat)}/free`, {}));
  if (b.dataset.approveSeat) r = await SK.busy(b, () => SK.api("POST", `${base}/seat-requests/${b.dataset.approveSeat}/approve`, {}));
  if (b.dataset.refuseSeat) r = await SK.busy(b, () => SK.api("POST", `${base}/seat-requests/${b.dataset.refuseSeat}/refuse`, {}));
  if (r && !r.ok) SK.toast(r.data.error, true);
  else if (r) SK.toast(b.dataset.freeSeat ? `${b.dataset.freeSeat}'s seat is free` : r.data.status === "approved" ? "Seat given to the new phone" : "Request refused");
});

/* the keeper's Amend link of a finished hand, where the hands are listed (the keeper's page):
   it opens that hand's amendment on the history page (amend.js) */
SK.amendHandLink = (t, handNo) => (t.role && t.role.kind === "keeper"
  ? ` <a class="btn small" href="/t/${encodeURIComponent(t.id)}/history#amend-hand-${handNo}" data-amend-hand-link="${handNo}">Amend</a>` : "");

/* a peg colour picker (input[data-peg-colour="MIN"], MIN from scorekeeper.pegboard) warns
   as soon as a colour too dark to show is picked: the LED board lifts any colour whose every
   channel is below MIN, and the boards' dark screen hides it */
SK.darkColour = (hex, min) => { const v = parseInt(String(hex).slice(1), 16); return [v >> 16 & 255, v >> 8 & 255, v & 255].every((c) => c < min); };
SK.watchPegColours = (root) => SK.$$("input[data-peg-colour]", root).forEach((input) => {
  const note = document.getElementById(input.getAttribute("aria-describedby") || "");
  const check = () => {
    if (!note) return;
    const dark = SK.darkColour(input.value, +input.dataset.pegColour);
    note.hidden = !dark;
    note.textContent = dark ? `${input.value} is too dark to show: the LED board cannot light it as chosen (it shows the dimmest shade it can light instead) and it is hard to see on the screen. Pick a brighter colour.` : "";
  };
  input.addEventListener("input", check); input.addEventListener("change", check); check();
});
document.addEventListener("DOMContentLoaded", () => SK.watchPegColours());

/* card codes -> HTML chips */
SK.cardInfo = (code) => {
  if (code === "boss") return {label: "Boss", cls: "joker"};
  if (code === "null") return {label: "Null", cls: "null"};
  if (code.startsWith("jk")) { const c = code.split("-")[1] || ""; return {label: "\u2605" + (c ? c[0].toUpperCase() + c.slice(1) : "Joker"), cls: "joker " + c}; }
  const suit = code.slice(-2), rank = code.slice(0, -2), s = SK.SUIT[suit];
  return s ? {label: rank + s.sym, cls: s.colour} : {label: code, cls: "unknown"};
};
/* a chip is an image named for screen readers ("7 of hearts"), not read as its symbols */
SK.cardHTML = (code, extra) => { const i = SK.cardInfo(code); return `<span class="card ${i.cls} ${extra || ""}" title="${SK.esc(code)}" role="img" aria-label="${SK.esc(SK.cardName(code))}">${SK.esc(i.label)}</span>`; };
/* a chip's face inside a button: the symbols shown, the card's name read */
SK.cardFaceHTML = (code) => `<span aria-hidden="true">${SK.esc(SK.cardInfo(code).label)}</span><span class="sr-only">${SK.esc(SK.cardName(code))}</span>`;
SK.cardsHTML = (codes) => (codes || []).map((c) => SK.cardHTML(c)).join("");

/* each board's shape, in board order, so that no one has to tell the peg colours apart */
SK.MARKS = ["circle", "square", "triangle", "diamond", "star", "hexagon", "plus", "down triangle"];
SK.markOf = (state, owner) => Math.max(0, (state.boards || []).findIndex((b) => b.owner === owner)) % SK.MARKS.length;
SK.markPoints = (mark, cx, cy, r) => {
  const ring = (n, turn, radii) => Array.from({length: n * radii.length}, (_, i) => {
    const a = turn + i * 2 * Math.PI / (n * radii.length), rr = r * radii[i % radii.length];
    return `${(cx + rr * Math.sin(a)).toFixed(1)},${(cy - rr * Math.cos(a)).toFixed(1)}`;
  }).join(" ");
  switch (mark) {
    case "square": return ring(4, Math.PI / 4, [1]);
    case "triangle": return ring(3, 0, [1.15]);
    case "diamond": return ring(4, 0, [1.1]);
    case "star": return ring(5, 0, [1.2, .5]);
    case "hexagon": return ring(6, 0, [1]);
    case "down triangle": return ring(3, Math.PI, [1.15]);
    case "plus": { const a = r * .38, b = r; return [[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]].map(([x, y]) => `${cx + x},${cy + y}`).join(" "); }
    default: return null;
  }
};
/* a board's shape as an SVG element (a circle, or a polygon) with the given attributes */
SK.markShape = (mark, cx, cy, r, attrs) => {
  const pts = SK.markPoints(mark, cx, cy, r);
  return pts ? `<polygon points="${pts}" ${attrs}/>` : `<circle cx="${cx}" cy="${cy}" r="${r}" ${attrs}/>`;
};
/* the colour swatch of a board's header or a standings row: its shape in its colour */
SK.swatchSVG = (colour, mark) => `<svg class="swatch mark" viewBox="0 0 24 24" aria-hidden="true" data-mark="${mark}"><title>${mark}</title>${SK.markShape(mark, 12, 12, 9, `fill="${SK.esc(colour)}" stroke="#fff" stroke-width="1.5"`)}</svg>`;

/* peg board: three rows of ten holes (hundreds, tens, ones), minus and thousand lights */
SK.boardSVG = (b, mark) => {
  const rows = [["100s", b.hundreds], ["10s", b.tens], ["1s", b.ones]];
  let s = `<svg viewBox="0 0 360 132" role="img" aria-label="${SK.esc(b.owner)}, ${b.score}">`;
  for (let i = 0; i < 10; i++) s += `<text class="digit" x="${58 + i * 30}" y="13" text-anchor="middle">${i}</text>`;
  rows.forEach(([label, lit], r) => {
    const y = 34 + r * 38;
    s += `<text class="rowlabel" x="4" y="${y + 5}">${label}</text>`;
    for (let i = 0; i < 10; i++) {
      const x = 58 + i * 30;
      if (i === lit) s += SK.markShape(mark || "circle", x, y, 13, `class="peg" data-mark="${mark || "circle"}" fill="${SK.esc(b.colour)}" style="filter: drop-shadow(0 0 5px ${SK.esc(b.colour)})"`);
      else s += `<circle class="hole" cx="${x}" cy="${y}" r="7"/>`;
    }
  });
  return s + "</svg>";
};
SK.boardHTML = (b, state) => {
  const turnOwner = SK.ownerOf(state, state.turn), mark = SK.MARKS[SK.markOf(state, b.owner)];
  const members = (b.members && b.members.length > 1) ? `<div class="members">${SK.esc(b.members.join(" & "))}</div>` : "";
  return `<div class="board${turnOwner === b.owner && state.phase === "playing" ? " turn" : ""}" data-owner="${SK.esc(b.owner)}" style="border-top: 6px solid ${SK.esc(b.colour)}">
    <header>${SK.swatchSVG(b.colour, mark)}<div class="who"><div class="owner">${SK.esc(b.owner)}</div>${members}</div>
    <div class="lamps" aria-hidden="true"><span class="lamp minus${b.negative ? " lit" : ""}" title="minus light">\u2212</span><span class="lamp thousand${b.thousands > 0 ? " lit" : ""}" title="thousand light">1000${b.thousands > 1 ? " \u00d7" + b.thousands : ""}</span></div>
    <div class="score" data-score>${b.score}</div></header>
    ${SK.boardSVG(b, mark)}</div>`;
};
SK.ownerOf = (state, player) => {
  const p = (state.players || []).find((x) => x.name === player);
  return p ? (p.team || p.name) : null;
};
SK.renderBoards = (el, state, only) => {
  const boards = (state.boards || []).filter((b) => !only || only(b));
  el.innerHTML = boards.map((b) => SK.boardHTML(b, state)).join("");
};
SK.statusHTML = (state) => {
  const parts = [];
  if (state.phase === "game-over" && state.winner) parts.push(`<b>${SK.esc(state.winner)} wins!</b>`);
  else if (state.phase === "playing") parts.push(`Turn: <b data-turn>${SK.esc(state.turn || "-")}</b>`);
  else if (state.phase === "hand-over") parts.push(`<b>Hand ${state.hand_no} is over</b>`);
  else parts.push(`<b>Waiting for the deal</b>`);
  if (state.dealer) parts.push(`Dealer: ${SK.esc(state.dealer)}`);
  parts.push(`Hand ${state.hand_no || 0}`);
  parts.push(`Goal ${state.goal}`);
  return parts.map((p) => `<span>${p}</span>`).join("");
};

/* what an event did, in words */
SK.describe = (e) => {
  if (!e) return "";
  const who = e.player ? SK.esc(e.player) : "";
  const cards = (xs) => SK.cardsHTML(xs);
  switch (e.type) {
    case "new-hand": return `New hand dealt by ${SK.esc(e.dealer)}`;
    case "meld": return `${who} melded ${cards(e.cards)}`;
    case "lay-off": return `${who} laid off ${cards(e.cards)} on meld #${e.meld}`;
    case "toss": return `${who} TOSSED ${e.captured ? `${SK.cardHTML(e.captured)} from ` : ""}meld #${e.meld} with ${SK.cardHTML(e.joker)} and melded ${cards(e.cards)}`;
    case "double-cross": return `${who} DOUBLE-CROSSED with ${cards(e.jokers)}`;
    case "steal": return `${who} stole ${SK.cardHTML(e.card)} onto meld #${e.meld}`;
    case "next-turn": return e.player ? `Turn set to ${who}` : "Next turn";
    case "end-hand": return e.went_out ? `Hand over: ${SK.esc(e.went_out)} went out` : "Hand abandoned";
    case "correction": return `Correction ${SK.esc(e.target)} ${e.points > 0 ? "+" : ""}${e.points}: ${SK.esc(e.reason)}`;
    case "undo": return "Undo of the last action";
    case "amend": return `Amendment of #${e.target}: ${SK.describe(e.event)} <span class="muted" data-reason>(why: ${SK.esc(e.reason)})</span>${(e.remove || []).length ? ` removing ${e.remove.map((n) => `#${n}`).join(", ")}` : ""}`;
    case "set-top": return `Top card of meld #${e.meld} recorded: ${SK.cardHTML(e.top)}`;
    case "hand": return `Hand entered${e.entry && e.entry.hand_no ? ` (hand ${e.entry.hand_no})` : ""}`;
    default: return SK.esc(e.type);
  }
};
SK.tickerHTML = (items, n) => items.slice(-n).reverse().map((it) =>
  `<li><span class="seq">#${it.seq}</span>${SK.describe(it.event)}${it.by && it.by !== "keeper" ? ` <span class="muted">(proposed by ${SK.esc(it.by)})</span>` : ""}</li>`).join("");

/* the live stream: state messages (id = seq) and table messages; EventSource resumes with
   Last-Event-ID after a dropped connection, and when the server refuses the stream (a 503 when
   too many pages are open, a restart) the page opens it again after a growing pause (1 s, 2 s,
   4 s... up to 30 s, with jitter), from the last message it saw. Returns {close()}. */
SK.live = (tableId, handlers) => {
  const dot = SK.$("#live");
  const live = {source: null, lastId: null, attempts: 0, timer: null, closed: false};
  const base = `/api/tables/${encodeURIComponent(tableId)}/stream`;
  const seen = (m) => { if (m.lastEventId) live.lastId = m.lastEventId; };
  const open = () => {
    live.timer = null;
    if (live.closed) return;
    const url = live.lastId === null ? base : `${base}?last_event_id=${encodeURIComponent(live.lastId)}`;
    const src = live.source = new EventSource(url);
    src.addEventListener("open", () => { live.attempts = 0; if (dot) dot.classList.add("on"); });
    src.addEventListener("error", () => {
      if (dot) dot.classList.remove("on");
      if (src.readyState !== EventSource.CLOSED || live.closed || live.timer) return;
      const pause = Math.min(30000, 1000 * 2 ** live.attempts) * (0.5 + Math.random() / 2);
      live.attempts = Math.min(live.attempts + 1, 8);
      live.timer = setTimeout(open, pause);
    });
    src.addEventListener("state", (m) => { seen(m); if (handlers.state) handlers.state(JSON.parse(m.data)); });
    src.addEventListener("table", (m) => { seen(m); if (handlers.table) handlers.table(JSON.parse(m.data)); });
  };
  live.close = () => { live.closed = true; clearTimeout(live.timer); if (live.source) live.source.close(); };
  open();
  return live;
};

/* a table page's running model: seq, state, meta and the recent events */
SK.Table = class {
  constructor(boot, onChange) {
    this.id = boot.table_id; this.seq = boot.seq; this.state = boot.state; this.meta = boot.table;
    this.role = boot.role; this.setup = boot.setup; this.recent = []; this.onChange = onChange;
    this.loadRecent();
    SK.live(this.id, {state: (m) => this.onState(m), table: (m) => { this.meta = m.table; this.onChange("table"); }});
  }
  async loadRecent() {
    const r = await SK.api("GET", `/api/tables/${this.id}/events?since=${Math.max(0, this.seq - 12)}`);
    if (!r.ok) return;
    // Live events may have come in while the request was on its way: keep them too.
    const bySeq = new Map(r.data.events.map((x) => [x.seq, x]));
    this.recent.forEach((x) => { if (!bySeq.has(x.seq)) bySeq.set(x.seq, x); });
    this.recent = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-40);
    this.onChange("recent");
  }
  onState(m) {
    if (m.seq < this.seq && m.event) return;
    // A state past the events this page holds without them (the snapshot a new stream opens
    // with, when an event landed between the page's load and the stream's start): fetch them.
    const missed = m.seq > this.seq + (m.event ? 1 : 0);
    this.seq = m.seq; this.state = m.state;
    if (m.event && !this.recent.some((x) => x.seq === m.seq)) this.recent.push({seq: m.seq, event: m.event, by: m.event.by});
    this.recent = this.recent.filter((x) => x.seq <= m.seq).slice(-40);
    this.onChange("state");
    if (missed) this.loadRecent();
  }
  adopt(seq, state) { if (seq >= this.seq) { this.seq = seq; this.state = state; this.onChange("state"); } }
};

/* a player's box under the last hand: its headline (head(last, me)), then "confirm" or done */
SK.confirmBox = (t, head, button) => {
  const me = t.role.player, hands = t.state.hands || [], last = hands[hands.length - 1], box = SK.$("#confirm-box");
  if (!(last && me)) { box.hidden = true; return; }
  const done = ((t.meta.confirmations || {})[String(last.hand_no)] || []).includes(me);
  box.hidden = false;
  box.innerHTML = head(last, me) + (done
    ? `<p class="okbox" data-confirmed>\u2714 You confirmed hand ${last.hand_no}.</p>`
    : `<button type="button" class="primary" id="confirm" data-hand="${last.hand_no}">${button}</button>`);
};
SK.onConfirm = (t) => document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("#confirm"); if (!b) return;
  const r = await SK.api("POST", `/api/tables/${t.id}/confirm`, {hand_no: +b.dataset.hand});
  if (!r.ok) SK.toast(r.data.error, true);
});

/* card picker: tap a rank then suits (or a suit then ranks); the first tap stays chosen */
SK.Picker = class {
  constructor(el, opts) {
    this.el = el; this.opts = opts || {}; this.cards = []; this.rank = null; this.suit = null; this.sticky = null;
    const ranks = SK.RANKS.map((r) => `<button type="button" data-rank="${r}">${r}</button>`).join("");
    const suits = SK.SUITS.map(([c, s, col]) => `<button type="button" class="s-${col}" data-suit="${c}" title="${c}">${s}<small style="font-size:.6em">${c}</small><span class="sr-only"> ${SK.esc(SK.CARD_WORDS.suit_plurals[c])}</span></button>`).join("");
    const jokers = SK.JOKERS.map(([c, l]) => `<button type="button" data-card="${c}">${l}</button>`).join("");
    el.classList.add("picker");
    el.innerHTML = `<div class="chosen" data-chosen><span class="muted">${SK.esc(this.opts.placeholder || "Tap a rank, then suits (or a suit, then ranks)")}</span></div>
      ${this.opts.jokersOnly ? "" : `<div class="keys">${ranks}</div><div class="suits">${suits}</div>`}
      <div class="jokers">${jokers}</div>
      <input class="typed" data-typed placeholder="or type codes: 7cl 7sp 7he boss" autocomplete="off" autocapitalize="none">`;
    el.addEventListener("click", (ev) => this.click(ev));
    SK.$("[data-typed]", el).addEventListener("change", (ev) => {
      SK.cardTokens(ev.target.value).forEach((c) => this.add(c)); ev.target.value = "";
    });
    SK.typedEnter(SK.$("[data-typed]", el), (c) => this.add(c));
  }
  click(ev) {
    const b = ev.target.closest("button"); if (!b || !this.el.contains(b)) return;
    if (b.dataset.remove !== undefined) { this.cards.splice(+b.dataset.remove, 1); return this.render(); }
    if (b.dataset.card) return this.add(b.dataset.card);
    if (b.dataset.rank) {
      if (this.suit && this.sticky === "suit") return this.add(b.dataset.rank + this.suit);
      this.rank = b.dataset.rank; this.suit = null; this.sticky = "rank";
    } else if (b.dataset.suit) {
      if (this.rank && this.sticky === "rank") return this.add(this.rank + b.dataset.suit);
      this.suit = b.dataset.suit; this.rank = null; this.sticky = "suit";
    }
    this.render();
  }
  add(code) {
    const c = SK.normCode(code); if (!c) return;
    if (this.opts.max && this.cards.length >= this.opts.max) this.cards.shift();
    this.cards.push(c); this.render();
  }
  set(codes) { this.cards = (codes || []).slice(); this.render(); }
  clear() { this.cards = []; this.rank = this.suit = this.sticky = null; this.render(); }
  render() {
    SK.$$("[data-rank]", this.el).forEach((b) => b.classList.toggle("on", b.dataset.rank === this.rank));
    SK.$$("[data-suit]", this.el).forEach((b) => b.classList.toggle("on", b.dataset.suit === this.suit));
    const chosen = SK.$("[data-chosen]", this.el);
    chosen.innerHTML = this.cards.length
      ? this.cards.map((c, i) => { const inf = SK.cardInfo(c); return `<button type="button" class="card ${inf.cls}" data-remove="${i}" title="tap to remove" aria-label="${SK.esc(SK.cardName(c))}, tap to remove">${SK.esc(inf.label)}</button>`; }).join("")
      : `<span class="muted">${SK.esc(this.opts.placeholder || "Tap a rank, then suits (or a suit, then ranks)")}</span>`;
    if (this.opts.onChange) this.opts.onChange(this.cards);
  }
};

SK.options = (sel, items, current) => {
  sel.innerHTML = items.map(([v, l]) => `<option value="${SK.esc(v)}"${v === current ? " selected" : ""}>${SK.esc(l)}</option>`).join("");
};

/* typed card codes split into tokens (spaces or commas), as the server's card reader splits them;
   every page reads typed cards through this one helper */
SK.cardTokens = (text) => String(text || "").split(/[\s,]+/).filter(Boolean);
/* typed suit symbols read as the suit codes (7♣ -> 7cl), as the server's card reader does */
SK.SUIT_SYMBOLS = {"\u2663": "cl", "\u2660": "sp", "\u2665": "he", "\u2666": "di", "\u2667": "cl", "\u2664": "sp", "\u2661": "he", "\u2662": "di"};
SK.normCode = (code) => String(code).trim().replace(/\ufe0f/g, "").replace(/[\u2660-\u2667]/g, (s) => SK.SUIT_SYMBOLS[s] || s);
/* Enter in a picker's "type codes" box adds the typed cards and never submits the form */
SK.typedEnter = (input, add) => input.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter") return;
  ev.preventDefault();
  SK.cardTokens(input.value).forEach(add); input.value = "";
});
/* the camera icon of the photo buttons (an image, not an emoji: many tablets have no emoji font) */
SK.CAMERA_SVG = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"/></svg>`;
/* an event in words, without markup (for confirm dialogs) */
SK.describeText = (e) => { const d = document.createElement("div"); d.innerHTML = SK.describe(e); return d.textContent.replace(/\s+/g, " ").trim(); };
/* the log's events still in effect, oldest first: each undo takes back the latest one */
SK.inEffect = (events) => {
  const stack = [];
  events.forEach((x) => { if (x.event.type === "undo") stack.pop(); else stack.push(x); });
  return stack;
};
/* "Undo #12: Bob melded 7♣ 7♠ 7♥?" for the keeper's confirm dialog (null: nothing to undo) */
SK.undoQuestion = async (tableId) => {
  const r = await SK.api("GET", `/api/tables/${tableId}/events`);
  if (!r.ok) return "Undo the last action?";
  const stack = SK.inEffect(r.data.events), last = stack.pop();
  if (!last) return null;
  const hands = stack.filter((x) => x.event.type === "hand").length;  // a rules-pack hand: its number
  const what = last.event.type === "hand" && !(last.event.entry || {}).hand_no ? `hand ${hands + 1} as entered` : SK.describeText(last.event);
  return `Undo #${last.seq}: ${what}?`;
};
/* a form's draft kept on this device until it is stored (a reload or Back keeps it) */
SK.Draft = class {
  constructor(tableId, name) { this.key = `sk-draft:${tableId}:${name}`; }
  load() { try { return JSON.parse(localStorage.getItem(this.key) || "null"); } catch (e) { return null; } }
  save(value) { try { localStorage.setItem(this.key, JSON.stringify(value)); } catch (e) { /* private mode: no draft */ } }
  clear() { try { localStorage.removeItem(this.key); } catch (e) { /* nothing kept */ } }
};
/* a score change's colour: good news green, bad news red, nothing plain (lower-is-better games
   count a rise as bad news) */
SK.tone = (delta, lowerWins) => (!delta ? "zero" : (delta < 0) === !!lowerWins ? "pos" : "neg");

/* large print: a toggle kept per device; html.large-print scales the page */
SK.LARGE_PRINT_KEY = "sk-large-print";
SK.largePrint = (on) => {
  document.documentElement.classList.toggle("large-print", on);
  SK.$$("[data-large-print]").forEach((b) => b.setAttribute("aria-pressed", String(on)));
};
SK.largePrint((() => { try { return localStorage.getItem(SK.LARGE_PRINT_KEY) === "1"; } catch (e) { return false; } })());
document.addEventListener("click", (ev) => {
  if (!ev.target.closest("[data-large-print]")) return;
  const on = !document.documentElement.classList.contains("large-print");
  try { localStorage.setItem(SK.LARGE_PRINT_KEY, on ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
  SK.largePrint(on);
});
