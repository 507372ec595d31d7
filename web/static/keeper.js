/* Keeper page (tablet): enter every action; the rules core checks it before anything is stored. */
"use strict";
(() => {
  const FIELDS = {
    "new-hand": ["dealer"], "meld": ["player", "cards", "top"], "lay-off": ["player", "meld", "cards", "top"],
    "toss": ["player", "meld", "joker", "cards", "top"], "double-cross": ["player", "cards"],
    "steal": ["player", "meld", "cards"], "next-turn": ["player"], "end-hand": ["went_out", "hands"],
    "correction": ["target", "points", "reason"], "undo": [], "set-top": ["meld", "top"],
  };
  const TITLES = {"new-hand": "New hand", "meld": "Meld", "lay-off": "Lay off", "toss": "Toss", "double-cross": "DoubleCross",
    "steal": "Steal (any player, out of turn)", "next-turn": "Next turn (after the discard)", "end-hand": "End hand",
    "correction": "Correction", "undo": "Undo the last action", "set-top": "Top card of a meld (tap the card on top)"};
  const form = SK.$("#action-form"), $f = (n) => form.elements[n];
  let action = "meld", selectedMeld = null, tallyShown = false, playerTouched = false;
  let wentOutTouched = false, jokerTouched = false, restoring = false;
  const picker = new SK.Picker(SK.$("#picker"), {onChange: () => { fresh(); fillTop(); askTop(); saveDraft(); }});
  const hands = {}, handNotes = {};  // per player: the cards left in hand, the last photo's notes

  const t = new SK.Table(SK.boot, render);
  const drafts = new SK.Draft(t.id, "keeper");
  // the action being entered: its id (a repeat of it is stored once) and the update it was
  // started on (a write from another device since then is shown, not overwritten)
  const entry = {id: SK.newId(), seq: t.seq};
  const PAGE_ID = SK.newId();  // with a proposal's id: a second tap on its Accept is a repeat
  function fresh() { entry.id = SK.newId(); entry.seq = t.seq; }

  function players() { return t.state.players.map((p) => p.name); }
  function fillTop() {
    const cur = $f("top").value, cards = [...new Set(topOptions())];
    SK.options($f("top"), [["", action === "set-top" ? "(tap the top card)" : "(automatic)"], ...cards.map((c) => [c, SK.cardInfo(c).label])], cur);
  }
  function choose(a) {
    action = a; tallyShown = false; fresh();
    SK.$$("#actions button").forEach((b) => b.classList.toggle("on", b.dataset.action === a));
    SK.$("#action-title").textContent = TITLES[a];
    const f = FIELDS[a];
    SK.$$("[data-f]", form).forEach((el) => el.classList.toggle("show", f.includes(el.dataset.f)));
    SK.$$("[data-f]", form).forEach((el) => { el.style.display = f.includes(el.dataset.f) ? "" : "none"; });
    SK.$("#preview").hidden = a !== "end-hand";
    SK.$("#submit").textContent = a === "end-hand" ? "Commit hand" : a === "undo" ? "Undo" : "Enter";
    SK.$("#refusal").innerHTML = ""; SK.$("#tally").innerHTML = "";
    picker.opts.max = a === "steal" ? 1 : 0;
    playerTouched = false; wentOutTouched = false; jokerTouched = false;
    picker.clear();
    $f("dealer").value = "";  // the dealer follows the deal rule again, not the last choice
    fillForm(); captured = null; showTop();
    if (a === "end-hand") buildHands();
    if (a === "undo") nameUndo();
  }
  function fillForm() {
    const s = t.state, ps = players();
    const turn = s.turn || ps[0];
    const keep = (sel, items, dflt) => { const v = sel.value; SK.options(sel, items, items.some(([x]) => x === v) ? v : dflt); };
    // the acting player follows the turn (the DoubleCross: the tossed player) until the keeper picks another
    const actor = action === "double-cross" && s.double_cross ? s.double_cross.victim : turn;
    if (playerTouched) keep($f("player"), ps.map((p) => [p, p]), actor);
    else SK.options($f("player"), ps.map((p) => [p, p]), actor);
    if (action === "next-turn") SK.options($f("player"), [["", "(the next player)"], ...ps.map((p) => [p, p])], "");
    const dealerDefault = s.dealer ? ps[(ps.indexOf(s.dealer) + 1) % ps.length] : ps[0];
    keep($f("dealer"), ps.map((p) => [p, p]), dealerDefault);
    keep($f("meld"), (s.melds || []).map((m) => [String(m.id), `#${m.id} ${m.owner}: ${m.cards.join(" ")} (top ${m.top})`]), selectedMeld ? String(selectedMeld) : "");
    const owners = (s.boards || []).map((b) => b.owner);
    const targets = [...new Set([...owners, ...ps])];
    keep($f("target"), targets.map((x) => [x, x]), targets[0]);
    wentOut(ps, turn);
    tossJoker();
  }
  /* who went out: the player whose turn it is, until the keeper picks another (or nobody) */
  function wentOut(ps, turn) {
    const items = [...ps.map((p) => [p, p]), ["", "(nobody: hand abandoned)"]], v = $f("went_out").value;
    SK.options($f("went_out"), items, wentOutTouched && items.some(([x]) => x === v) ? v : turn);
  }
  /* the tossing joker: the one of the captured top card's colour (the Boss for a joker top) */
  const JOKER_OF_SUIT = {cl: "jk-black", sp: "jk-black", he: "jk-red", di: "jk-red", cr: "jk-gold", or: "jk-gold", ca: "jk-blue", sh: "jk-blue"};
  function tossJoker() {
    if (action !== "toss" || jokerTouched) return;
    const m = chosenMeld(), top = m ? captured || m.top : null;
    if (top) $f("joker").value = JOKER_OF_SUIT[top.slice(-2)] || "boss";
  }
  /* the Undo form names what it takes back */
  async function nameUndo() {
    const q = await SK.undoQuestion(t.id);
    if (action === "undo") SK.$("#action-title").textContent = q ? q.replace(/\?$/, "") : "Nothing to undo";
  }
  /* the picked cards and typed hands stay on this device until they are stored */
  function saveDraft() {
    if (restoring) return;
    const typed = action === "end-hand" ? readHands() : {};
    if (!picker.cards.length && !Object.values(typed).some(Boolean)) { drafts.clear(); return; }
    drafts.save({hand_no: t.state.hand_no, action, cards: picker.cards.slice(), hands: typed,
      went_out: action === "end-hand" ? $f("went_out").value : null, player: playerTouched ? $f("player").value : null});
  }
  function restoreDraft(d) {
    if (!d || !FIELDS[d.action] || d.hand_no !== t.state.hand_no || t.state.phase !== "playing") return;
    restoring = true;
    choose(d.action);
    if (d.player && FIELDS[d.action].includes("player")) { $f("player").value = d.player; playerTouched = true; }
    if (d.action === "end-hand") {
      Object.entries(d.hands || {}).forEach(([p, codes]) => { hands[p] = codes.split(/\s+/).filter(Boolean); });
      if (d.went_out !== null) { $f("went_out").value = d.went_out; wentOutTouched = true; }
      buildHands();
    }
    picker.set(d.cards || []);
    restoring = false;
    saveDraft();
    SK.toast("Your entry that was not stored yet is back: check it, then " + SK.$("#submit").textContent);
  }
  function buildHands() {
    const proposed = {};
    (t.meta.proposals || []).filter((p) => p.kind === "hand").forEach((p) => { proposed[p.player] = p.payload.cards; });
    SK.$("#hands").innerHTML = players().map((p) => `<div class="row"><label style="display:flex">${SK.esc(p)}'s cards left in hand
      <input data-hand="${SK.esc(p)}" value="${SK.esc((hands[p] || proposed[p] || []).join(" "))}" placeholder="e.g. 5he Kcl (empty if none)"></label>
      <label class="btn photo-hand" title="photograph ${SK.esc(p)}'s cards">${SK.CAMERA_SVG}Photo<input type="file" accept="image/*" capture="environment" data-hand-photo="${SK.esc(p)}" hidden></label></div>
      <div data-hand-note="${SK.esc(p)}">${handNotes[p] || ""}</div>`).join("");
  }
  async function photographHand(input) {  // the photo's cards fill the player's field, still editable
    const p = input.dataset.handPhoto, file = input.files[0], note = (html, codes) => { handNotes[p] = html; readHands(); if (codes) hands[p] = codes; buildHands(); };
    if (!file) return;
    const tooLarge = SK.photoTooLarge(file, +SK.$("#hands").dataset.maxBytes);
    if (tooLarge) { note(`<div class="refusal" data-hand-error>${SK.esc(tooLarge)}</div>`); return; }
    note(`<span class="muted">Reading the cards\u2026</span>`);
    const r = await SK.recognizePhoto(t.id, file);
    if (!r.ok) { note(`<div class="refusal" data-hand-error>Photo: ${SK.esc(r.data.error)}</div>`); return; }
    const doubts = r.data.cards.filter((c) => c.doubt).map((c) => `${c.code} (${Math.round(c.confidence * 100)}%)`);
    SK.$("#tally").innerHTML = ""; tallyShown = false;  // preview again with the photographed cards
    note([`<span class="muted">${r.data.cards.length} card${r.data.cards.length === 1 ? "" : "s"} read from the photo: check them, then Preview.</span>`,
      ...(r.data.warnings || []).map((w) => `<div class="ph-warning">${SK.esc(w)}</div>`),
      doubts.length ? `<div class="ph-warning neg" data-hand-check>check: ${SK.esc(doubts.join(", "))}</div>` : ""].join(""), r.data.cards.map((c) => c.code));
  }
  function readHands() {
    const out = {};
    SK.$$("[data-hand]").forEach((i) => { out[i.dataset.hand] = i.value.trim(); hands[i.dataset.hand] = i.value.trim().split(/\s+/).filter(Boolean); });
    return out;
  }
  /* --- the top card: the melding player's choice, asked for when the meld could show more
     than one (a set, or a sequence with two ends) by one button per possible top (the tap that
     enters the meld); the Toss captures the top card tapped on the board; Top card records
     the top a meld really shows. */
  let captured = null, topChoices = [], topAsked = 0, topPending = null;
  const meldOf = (id) => (t.state.melds || []).find((m) => m.id === id) || null;
  const chosenMeld = () => meldOf(+$f("meld").value);
  function topOptions() {
    if (action === "set-top") { const m = chosenMeld(); return m ? m.cards : []; }
    if (action === "toss") { const m = chosenMeld(); return [...(m ? [captured || m.top] : []), ...picker.cards]; }
    return picker.cards;
  }
  function newMeldCards() {
    if (action === "meld") return picker.cards.length >= 3 ? picker.cards.slice() : null;
    if (action === "toss") { const m = chosenMeld(); return m && picker.cards.length >= 2 ? [captured || m.top, ...picker.cards] : null; }
    return null;
  }
  function askTop() {
    const n = ++topAsked, cards = newMeldCards();
    topChoices = [];
    if (!cards) { SK.$("#top-choice").innerHTML = ""; topPending = null; return null; }
    topPending = SK.api("POST", "/api/rules/check", {cards, options: t.setup.options}).then((r) => {
      if (n !== topAsked) return;
      const tops = r.ok && r.data.valid ? [...new Set(r.data.top_cards)] : [];
      topChoices = tops.length > 1 ? tops : [];
      SK.$("#top-choice").innerHTML = topChoices.length ? `<span class="muted">Which card is on top? Tap it to enter:</span> ${topChoices.map((c) =>
        `<button type="button" class="top-pick" data-top-pick="${SK.esc(c)}" title="enter with ${SK.esc(c)} on top">${SK.cardHTML(c)}</button>`).join("")}` : "";
    });
    return topPending;
  }
  function showTop() {  // the Toss: the card it captures (the top tapped on the board)
    const m = action === "toss" ? chosenMeld() : null;
    SK.$("#captured").innerHTML = m ? `Captures ${SK.cardHTML(captured || m.top)} from meld #${m.id} (${SK.esc(m.owner)}) <span class="muted">tap another meld's top card to change</span>` : "";
    fillTop(); askTop();
  }
  function tapMeldCard(m, card) {
    selectedMeld = m.id; $f("meld").value = String(m.id); fresh();
    if (action === "toss") { captured = m.top; tossJoker(); }
    if (action === "set-top" && card) { fillTop(); $f("top").value = card; }
    showTop(); render("melds");
  }
  async function topMissing() {  // Enter while the top is still a choice: ask, send nothing
    if (!["meld", "toss"].includes(action) || $f("top").value) return false;
    if (topPending) await topPending;
    if (!topChoices.length) return false;
    SK.$("#refusal").innerHTML = `<div class="refusal" data-refusal>Which card is on top of the meld? Tap it above Enter. <span class="muted">Nothing was stored.</span></div>`;
    return true;
  }

  function event() {
    const v = (n) => $f(n).value;
    const top = v("top") || null, cards = picker.cards.slice();
    switch (action) {
      case "new-hand": return {type: "new-hand", dealer: v("dealer")};
      case "meld": return {type: "meld", player: v("player"), cards, top};
      case "lay-off": return {type: "lay-off", player: v("player"), meld: +v("meld"), cards, top};
      case "toss": { const m = chosenMeld(); return {type: "toss", player: v("player"), meld: +v("meld"), joker: v("joker"), cards, top, ...(m ? {captured: captured || m.top} : {})}; }
      case "set-top": return {type: "set-top", meld: +v("meld"), top: v("top")};
      case "double-cross": return {type: "double-cross", player: v("player"), jokers: cards};
      case "steal": return {type: "steal", player: v("player"), card: cards[0] || "", meld: +v("meld")};
      case "next-turn": return v("player") ? {type: "next-turn", player: v("player")} : {type: "next-turn"};
      case "end-hand": return {type: "end-hand", went_out: v("went_out") || null, hands: Object.fromEntries(Object.entries(readHands()).map(([p, s]) => [p, SK.cardTokens(s)]))};
      case "correction": return {type: "correction", target: v("target"), points: parseInt(v("points"), 10), reason: v("reason")};
      default: return {type: "undo"};
    }
  }
  async function preview() {
    const r = await SK.api("POST", `/api/tables/${t.id}/preview-end-hand`, {went_out: $f("went_out").value || null, hands: readHands()});
    if (!r.ok) { SK.$("#refusal").innerHTML = `<div class="refusal">Refused: ${SK.esc(r.data.error)}</div>`; return false; }
    SK.$("#refusal").innerHTML = "";
    const tally = r.data.tally, team = {};
    t.state.players.forEach((p) => { team[p.name] = p.team; });
    const rows = Object.entries(tally.players).map(([p, x]) => `<tr><td>${SK.esc(p)}${team[p] ? ` <span class="muted">(${SK.esc(team[p])})</span>` : ""}</td>
      <td class="num">${x.melded_points}</td><td class="num">${x.exempt ? `<s>${x.hand_points}</s>` : x.hand_points}</td>
      <td class="num ${x.net < 0 ? "neg" : "pos"}"><b>${x.net}</b></td><td>${x.exempt ? "team exemption: a team-mate went out, no negatives" : ""}</td></tr>`).join("");
    const teams = Object.entries(tally.teams || {}).map(([n, v]) => `<span class="chip" data-team-net="${SK.esc(n)}">${SK.esc(n)}: <b class="${SK.tone(v.net)}">${v.net > 0 ? "+" : ""}${v.net}</b></span>`).join("");
    SK.$("#tally").innerHTML = `<table class="grid" id="tally-table"><tr><th>Player</th><th class="num">Melded</th><th class="num">In hand</th><th class="num">Net</th><th></th></tr>${rows}</table>${teams ? `<p>Teams: ${teams}</p>` : ""}<p class="muted">Check the tally, then Commit hand.</p>`;
    tallyShown = true;
    return true;
  }
  async function submit(ev) {
    ev.preventDefault();
    if (action === "end-hand" && !tallyShown) { await preview(); return; }
    if (action === "undo") {
      const q = await SK.undoQuestion(t.id);
      if (q === null) { SK.$("#refusal").innerHTML = `<div class="refusal" data-refusal>There is nothing to undo.</div>`; return; }
      if (!confirm(q)) return;
    }
    if (await topMissing()) return;
    const r = await SK.busy(SK.$("#submit"), () => SK.api("POST", `/api/tables/${t.id}/events`, {base_seq: entry.seq, event: event(), action_id: entry.id}));
    if (!r) return;
    if (r.status === 200 && r.data.repeat) {
      t.adopt(r.data.table_seq, r.data.state); entry.seq = t.seq;
      SK.$("#refusal").innerHTML = SK.repeatHTML(r.data);
    } else if (r.status === 201) {
      const id = entry.id, was = action;
      t.adopt(r.data.seq, r.data.state); SK.toast("Stored: " + TITLES[action]);
      SK.$("#refusal").innerHTML = ""; SK.$("#tally").innerHTML = ""; picker.clear(); tallyShown = false; playerTouched = false;
      if (action === "new-hand" || action === "end-hand") { [hands, handNotes].forEach((o) => Object.keys(o).forEach((k) => delete o[k])); choose(action === "new-hand" ? "meld" : "new-hand"); }
      if (action === "correction") { $f("points").value = ""; $f("reason").value = ""; }
      // on the same form, a second tap on Enter repeats this id (answered, not stored again)
      // until the keeper changes something; a form switched to the next action has its own
      if (action === was) entry.id = id;
      entry.seq = t.seq;
      if (action === "next-turn") choose("meld");  // the new player's turn starts with a meld, mostly
      if (action === "undo") nameUndo();
      drafts.clear();
    } else if (r.status === 409) {
      t.adopt(r.data.seq, r.data.state); entry.seq = t.seq;
      SK.$("#refusal").innerHTML = SK.staleHTML(r.data);
    } else {
      SK.$("#refusal").innerHTML = `<div class="refusal" data-refusal>Refused: ${SK.esc(r.data.error)} <span class="muted">Nothing was stored.</span></div>`;
    }
  }
  async function proposalAction(id, what) {
    const r = await SK.api("POST", `/api/tables/${t.id}/proposals/${id}/${what}`, {base_seq: t.seq, action_id: `${PAGE_ID}-p${id}`});
    if (r.ok) { if (r.data.state) { t.adopt(r.data.table_seq || r.data.seq, r.data.state); entry.seq = t.seq; } SK.toast(what === "accept" ? "Proposal accepted" : "Proposal rejected"); }
    else SK.toast(r.data.error, true);
  }

  function renderDoubleCross(s) {  // what a DoubleCross would take now, under the table's option
    const dc = s.double_cross, box = SK.$("#double-cross");
    box.hidden = !dc;
    if (!dc) return;
    const when = dc.ready ? "now" : `after ${SK.esc(dc.against)} discards`;
    SK.$("#dc-takes").innerHTML = `<p>${SK.esc(dc.victim)} may DoubleCross ${SK.esc(dc.against)} ${when}, taking
      (<code>double_cross_takes: ${SK.esc(s.options.double_cross_takes)}</code>):</p>` + dc.takes.map((x) =>
      `<div class="meld" data-dc-take="${x.meld}"><span class="who">#${x.meld}${x.whole ? "" : " laid off"}</span>${SK.cardsHTML(x.cards)}</div>`).join("");
  }
  function meldCardsHTML(m) {  // the top card marked (one copy: the one a Toss takes), each card a tap
    const at = m.cards.lastIndexOf(m.top);
    return m.cards.map((c, i) => `<button type="button" class="card-tap" data-card="${SK.esc(c)}"${i === at ? " data-top-card" : ""}>${SK.cardHTML(c, i === at ? "top" : "")}</button>`).join("");
  }
  function render(what) {
    const s = t.state;
    SK.$("#status").innerHTML = SK.statusHTML(s) + `<span class="muted">update ${t.seq}</span>`;
    SK.renderBoards(SK.$("#boards"), s);
    SK.$("#winner").innerHTML = s.winner ? `<div class="winner-banner">${SK.esc(s.winner)} wins the game!</div>` : "";
    SK.$("#melds").innerHTML = (s.melds || []).map((m) => `<div class="meld${m.id === selectedMeld ? " sel" : ""}" data-meld="${m.id}">
      <span class="who">#${m.id} ${SK.esc(m.owner)}</span>${meldCardsHTML(m)}</div>`).join("") || `<span class="muted">no melds yet</span>`;
    renderDoubleCross(s);
    SK.$("#ticker").innerHTML = SK.tickerHTML(t.recent, 8);
    const meta = t.meta;
    SK.$("#proposals").innerHTML = (meta.proposals || []).map((p) => p.kind === "hand"
      ? `<div class="meld"><span class="who">${SK.esc(p.player)}</span> hand: ${SK.cardsHTML(p.payload.cards)} <span class="muted">(used by End hand)</span></div>`
      : `<div class="meld"><span class="who">${SK.esc(p.player)}</span> ${SK.describe(p.payload)}
         <button type="button" class="primary" data-accept="${p.id}">Accept</button><button type="button" data-reject="${p.id}">Reject</button></div>`).join("") || "none";
    SK.$("#auto-accept").checked = !!meta.auto_accept;
    const hands_ = s.hands || [];
    SK.$("#confirmations").innerHTML = hands_.length ? hands_.slice(-3).reverse().map((h) => {
      const ok = (meta.confirmations || {})[String(h.hand_no)] || [];
      return `<div data-hand-row="${h.hand_no}">Hand ${h.hand_no}: ${players().map((p) => `<span class="chip${ok.includes(p) ? " ok" : ""}">${ok.includes(p) ? "\u2714" : "\u2026"} ${SK.esc(p)}</span>`).join("")}${SK.amendHandLink(t, h.hand_no)}</div>`;
    }).join("") : "no hand tallied yet";
    if (what !== "state") renderSeats(meta);
    const bs = meta.board_status || {};
    SK.$("#board-status").textContent = `${bs.status || "none"}: ${bs.detail || ""}`;
    if (what === "state" || what === undefined) fillForm();
    if (what === "state" && (action === "toss" || action === "set-top")) showTop();  // the board moved
    if (what === "table" && action === "end-hand") {
      const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.hand;
      if (!focused) { readHands(); buildHands(); }
    }
  }

  SK.$("#actions").addEventListener("click", (ev) => { const b = ev.target.closest("button[data-action]"); if (b) choose(b.dataset.action); });
  SK.$("#melds").addEventListener("click", (ev) => {
    const m = ev.target.closest("[data-meld]"); if (!m) return;
    const card = ev.target.closest("[data-card]");
    tapMeldCard(meldOf(+m.dataset.meld), card ? card.dataset.card : null);
  });
  SK.$("#proposals").addEventListener("click", (ev) => {
    const b = ev.target.closest("button"); if (!b) return;
    if (b.dataset.accept) proposalAction(b.dataset.accept, "accept");
    if (b.dataset.reject) proposalAction(b.dataset.reject, "reject");
  });
  SK.$("#auto-accept").addEventListener("change", (ev) => SK.api("POST", `/api/tables/${t.id}/settings`, {auto_accept: ev.target.checked}));
  SK.$("#rotate").addEventListener("click", () => SK.rotateJoin(t.id));
  SK.onSeats(t);
  function renderSeats(meta) {  // keeps a seat's QR code open while the seats change
    const qr = SK.$("#seat-qr"), open = qr ? qr.innerHTML : "";
    SK.$("#seats").innerHTML = SK.seatsHTML(meta, t.id);
    SK.$("#seat-qr").innerHTML = open;
  }
  SK.$("#preview").addEventListener("click", preview);
  SK.$("#hands").addEventListener("change", (ev) => { if (ev.target.dataset.handPhoto) photographHand(ev.target); });
  $f("player").addEventListener("change", () => { playerTouched = true; saveDraft(); });
  $f("went_out").addEventListener("change", () => { wentOutTouched = true; saveDraft(); });
  $f("joker").addEventListener("change", () => { jokerTouched = true; });
  SK.$("#hands").addEventListener("input", saveDraft);
  $f("player").addEventListener("change", () => { playerTouched = true; });
  form.addEventListener("input", fresh);
  $f("meld").addEventListener("change", () => { const m = chosenMeld(); if (m) tapMeldCard(m, null); });
  SK.$("#top-choice").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-top-pick]"); if (!b) return;
    fillTop(); const pick = b.dataset.topPick;
    if (![...$f("top").options].some((o) => o.value === pick)) $f("top").add(new Option(SK.cardInfo(pick).label, pick));
    $f("top").value = pick; form.requestSubmit();
  });
  form.addEventListener("change", fresh);
  form.addEventListener("submit", submit);
  const draft = drafts.load();
  choose(t.state.phase === "playing" ? "meld" : "new-hand");
  render();
  restoreDraft(draft);
})();
