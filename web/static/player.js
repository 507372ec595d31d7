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
    SK.confirmBox(t, (last) => {
      const deltas = Object.entries(last.deltas || {}).map(([o, d]) => `<span class="chip">${SK.esc(o)} <b class="${d < 0 ? "neg" : "pos"}">${d > 0 ? "+" : ""}${d}</b></span>`).join("");
      return `<h2>Hand ${last.hand_no} tally</h2><p>${deltas}</p>`;
    }, "My hand tally is right");
    const mine = (t.meta.proposals || []).filter((p) => p.player === me);
    SK.$("#my-proposals").innerHTML = mine.length ? `<p class="muted">Waiting for the keeper: ${mine.map((p) => p.kind === "hand" ? "your hand" : SK.describe(p.payload)).join("; ")}</p>` : "";
    SK.$("#propose-box").hidden = !me;
  }
  function showFields() {
    const v = type.value;
    SK.$("#p-meld-l").style.display = ["lay-off", "toss", "steal"].includes(v) ? "" : "none";
    SK.$("#p-joker-l").style.display = v === "toss" ? "" : "none";
  }
  type.addEventListener("change", showFields); showFields();
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
      SK.$("#p-result").innerHTML = `<div class="okbox">${r.data.status === "accepted" ? "Accepted and scored." : "Sent: the keeper will accept it."}</div>`;
    } else SK.$("#p-result").innerHTML = `<div class="refusal">Refused: ${SK.esc(r.data.error)}</div>`;
  });
  SK.onConfirm(t);
  render();
})();
