/* Player page (phone): my score, all boards, whose turn, the last events; propose and confirm. */
"use strict";
(() => {
  const t = new SK.Table(SK.boot, render);
  const me = t.role.player;
  let actionId = SK.newId();  // one per proposal: a double tap sends it once
  const picker = new SK.Picker(SK.$("#p-picker"), {onChange: () => { actionId = SK.newId(); askTop(); }});
  const type = SK.$("#p-type");
  SK.$("#propose-box").addEventListener("change", () => { actionId = SK.newId(); askTop(); });

  /* the top card of my new meld (a meld, or the meld a Toss makes): mine to choose when it
     could be several cards; one button per possible top, and that tap sends the play */
  let tops = [], top = null, asked = 0, pending = null;
  function newMeld() {
    const v = type.value, m = (t.state.melds || []).find((x) => x.id === +SK.$("#p-meld").value);
    if (v === "meld" && picker.cards.length >= 3) return picker.cards.slice();
    if (v === "toss" && m && picker.cards.length >= 2) return [m.top, ...picker.cards];
    return null;
  }
  function askTop() {
    const n = ++asked, cards = newMeld();
    tops = []; top = null; SK.$("#p-top").innerHTML = "";
    pending = cards && SK.api("POST", "/api/rules/check", {cards, options: t.setup.options}).then((r) => {
      if (n !== asked) return;
      const all = r.ok && r.data.valid ? [...new Set(r.data.top_cards)] : [];
      tops = all.length > 1 ? all : [];
      SK.$("#p-top").innerHTML = tops.length ? `<span class="muted">Which card is on top? Tap it to send:</span> ${tops.map((c) => `<button type="button" class="top-pick" data-p-top="${SK.esc(c)}">${SK.cardHTML(c)}</button>`).join("")}` : "";
    });
  }
  SK.$("#p-top").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-p-top]"); if (!b) return;
    top = b.dataset.pTop; SK.$("#p-send").click();
  });

  function myOwner() { return SK.ownerOf(t.state, me) || me; }
  function render() {
    const s = t.state, owner = myOwner();
    SK.$("#turn-line").innerHTML = s.phase === "playing" && s.turn === me ? `<div class="yourturn">Your turn!</div>` : `<div class="status panel">${SK.statusHTML(s)}</div>`;
    SK.$("#my-board").dataset.me = me ? (owner !== me ? `${me} (${owner})` : me) : "";
    SK.$("#winner").innerHTML = s.winner ? `<div class="winner-banner">${SK.esc(s.winner)} wins!</div>` : "";
    SK.renderBoards(SK.$("#my-board"), s, (b) => b.owner === owner);
    SK.renderBoards(SK.$("#boards"), s, (b) => b.owner !== owner);
    SK.$("#ticker").innerHTML = SK.tickerHTML(t.recent, 5);
    SK.$("#melds").innerHTML = (s.melds || []).map((m) => `<div class="meld"><span class="who">#${m.id} ${SK.esc(m.owner)}</span>${m.cards.map((c) => SK.cardHTML(c, c === m.top ? "top" : "")).join("")}</div>`).join("") || `<span class="muted">no melds yet</span>`;
    const sel = SK.$("#p-meld"), cur = sel.value;
    SK.options(sel, (s.melds || []).map((m) => [String(m.id), `#${m.id} ${m.owner} (top ${m.top})`]), cur);
    tossJoker();
    SK.confirmBox(t, tallyHTML, "My hand tally is right");
    SK.amendNotice(t);
    sentResult();
    const mine = (t.meta.proposals || []).filter((p) => p.player === me);
    SK.$("#my-proposals").innerHTML = mine.length ? `<p class="muted">Waiting for the keeper: ${mine.map((p) => p.kind === "hand" ? "your hand" : SK.describe(p.payload)).join("; ")}</p>` : "";
    SK.$("#propose-box").hidden = !me;
  }
  /* the end-of-hand tally, checkable card by card: melded points, cards in hand, the team
     exemption and the net, mine first; then the hand's whole change (plays and tally) */
  function tallyHTML(last, me) {
    const tally = last.tally || {players: {}}, sign = (n) => `${n > 0 ? "+" : ""}${n}`;
    const line = (p, x) => `<tr data-tally="${SK.esc(p)}"${p === me ? ` class="me"` : ""}><td>${SK.esc(p)}</td><td class="num" data-melded>${x.melded_points}</td>
      <td class="num" data-in-hand>${!x.hand_points ? "0" : x.exempt ? `<s>\u2212${x.hand_points}</s>` : `\u2212${x.hand_points}`}</td><td class="num ${SK.tone(x.net)}" data-net><b>${sign(x.net)}</b></td></tr>`;
    const mine = tally.players[me], rows = Object.entries(tally.players);
    const ended = t.recent.slice().reverse().find((x) => x.event.type === "end-hand");
    const myCards = ended && ended.event.hands ? ended.event.hands[me] : null;
    const head = mine ? `<p class="tally-mine" data-my-tally>Melded <b>${mine.melded_points}</b>, in hand <b>\u2212${mine.hand_points}</b>${myCards && myCards.length ? ` <span data-my-cards>(${SK.cardsHTML(myCards)})</span>` : ""}${mine.exempt ? " <b>not counted</b> (a team-mate went out: team exemption)" : ""}, net <b class="${SK.tone(mine.net)}">${sign(mine.net)}</b>.</p>` : "";
    const teams = Object.entries(tally.teams || {}).map(([n, v]) => `<span class="chip" data-team-net="${SK.esc(n)}">${SK.esc(n)} tally <b class="${SK.tone(v.net)}">${sign(v.net)}</b></span>`).join("");
    const whole = Object.entries(last.deltas || {}).map(([o, d]) => `${SK.esc(o)} ${sign(d)}`).join(", ");
    return `<h2>Hand ${last.hand_no} tally</h2>${last.went_out ? `<p class="muted">${SK.esc(last.went_out)} went out.</p>` : `<p class="muted">Nobody went out.</p>`}${head}
      <table class="grid tally-all"><tr><th>Player</th><th class="num">Melded</th><th class="num">In hand</th><th class="num">Net</th></tr>${rows.map(([p, x]) => line(p, x)).join("")}</table>
      ${teams ? `<p>${teams}</p>` : ""}<p class="muted">Whole hand with the plays scored during it: ${whole}.</p>`;
  }
  /* my last proposal's fate: waiting, then accepted (stored) or rejected by the keeper */
  let sent = null;
  function sentResult() {
    if (!sent || (t.meta.proposals || []).some((p) => p.id === sent.id)) return;
    const stored = t.recent.find((x) => x.seq > sent.seq && x.by === me);
    SK.$("#p-result").innerHTML = stored ? `<div class="okbox" data-proposal-done>The keeper accepted it: stored as #${stored.seq}.</div>`
      : `<div class="refusal" data-proposal-done>The keeper did not accept it: ask at the table.</div>`;
    sent = null;
  }
  function showFields() {
    const v = type.value;
    SK.$("#p-meld-l").style.display = ["lay-off", "toss", "steal"].includes(v) ? "" : "none";
    SK.$("#p-joker-l").style.display = v === "toss" ? "" : "none";
  }
  type.addEventListener("change", showFields); showFields();
  /* the tossing joker follows the chosen meld's top card colour until the player picks one */
  const JOKER_OF_SUIT = {cl: "jk-black", sp: "jk-black", he: "jk-red", di: "jk-red", cr: "jk-gold", or: "jk-gold", ca: "jk-blue", sh: "jk-blue"};
  let jokerTouched = false;
  function tossJoker() {
    const m = (t.state.melds || []).find((x) => String(x.id) === SK.$("#p-meld").value);
    if (!jokerTouched && m && m.top) SK.$("#p-joker").value = JOKER_OF_SUIT[m.top.slice(-2)] || "boss";
  }
  SK.$("#p-meld").addEventListener("change", tossJoker);
  SK.$("#p-joker").addEventListener("change", () => { jokerTouched = true; });
  SK.$("#p-send").addEventListener("click", async () => {
    const v = type.value, cards = picker.cards.slice(), meld = +SK.$("#p-meld").value;
    if (pending) await pending;
    if ((v === "meld" || v === "toss") && tops.length && !top) {
      SK.$("#p-result").innerHTML = `<div class="refusal">Which card is on top of your meld? Tap it above.</div>`; return;
    }
    let body;
    if (v === "hand") body = {kind: "hand", cards};
    else {
      const e = {type: v};
      if (v === "meld") Object.assign(e, {cards, top});
      if (v === "lay-off") Object.assign(e, {meld, cards, top: null});
      if (v === "toss") Object.assign(e, {meld, joker: SK.$("#p-joker").value, cards, top});
      if (v === "double-cross") Object.assign(e, {jokers: cards});
      if (v === "steal") Object.assign(e, {meld, card: cards[0] || ""});
      body = {kind: "event", event: e};
    }
    body.action_id = actionId;
    const r = await SK.busy(SK.$("#p-send"), () => SK.api("POST", `/api/tables/${t.id}/proposals`, body));
    if (!r) return;
    if (r.ok) {
      picker.clear();
      if (r.data.state) t.adopt(r.data.seq, r.data.state);
      SK.$("#p-result").innerHTML = `<div class="okbox">${r.data.status === "accepted" ? "Accepted and scored." : body.kind === "hand" ? "Sent: the keeper uses it at End hand." : "Sent: waiting for the keeper."}</div>`;
      if (r.data.status === "pending" && body.kind !== "hand") sent = {id: r.data.id, seq: t.seq};
    } else SK.$("#p-result").innerHTML = `<div class="refusal">Refused: ${SK.esc(r.data.error)}</div>`;
  });
  SK.onConfirm(t);
  SK.onReconfirm(t);
  render();
})();
