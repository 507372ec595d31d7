/* Games entered hand by hand: the standings, chips and score sheet every page shows, and on the
   keeper's tablet the hand form rendered from the game's declarative hand_form, with a dry-run
   preview. Nothing here names a game: what differs comes from the game's description (its
   "ui" hints: card points, wild rank, progress, notes, counters). */
"use strict";
(() => {
  const GAME = JSON.parse(document.getElementById("game-data").textContent);
  const UI = GAME.ui;
  const RANK_NAMES = {1: "Aces", 2: "2s", 3: "3s", 4: "4s", 5: "5s", 6: "6s", 7: "7s", 8: "8s", 9: "9s", 10: "10s", 11: "Jacks", 12: "Queens", 13: "Kings"};
  const MELD_NAMES = UI.meld_names || {};
  const sign = (d) => `${d > 0 ? "+" : ""}${d}`;
  const fill = (note, values) => note.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  const goalOf = (s) => s.options.goal || s.options.limit || null;
  const lowFirst = () => UI.lowest_first;
  const wildIn = (handNo) => (UI.wild_rank ? RANK_NAMES[handNo + UI.wild_rank.first - 1] || "-" : null);

  /* --- what every page shows --------------------------------------------------------------- */
  function ranked(s) {
    const lastHand = (s.hands || [])[s.hands.length - 1];
    const colours = Object.fromEntries((s.boards || []).map((b) => [b.owner, b.colour]));
    const rows = s.players.map((p, seat) => ({name: p.name, score: p.score, seat, colour: colours[p.name] || "#888", mark: SK.MARKS[SK.markOf(s, p.name)],
      last: lastHand ? (lastHand.deltas || {})[p.name] || 0 : null}));
    rows.sort((a, b) => (lowFirst(s) ? a.score - b.score : b.score - a.score) || a.seat - b.seat);
    let place = 0, prev = null;
    rows.forEach((r, i) => { if (r.score !== prev) { place = i + 1; prev = r.score; } r.place = place; });
    return rows;
  }
  function standingsHTML(s, me) {
    const chips = s.chips && s.chips.counts;
    return `<table class="standings" id="standings-table"><tr><th></th><th>Player</th><th class="num">${s.hand_no ? `Hand ${s.hand_no}` : ""}</th><th class="num">Total</th>${chips ? `<th class="num">Chips</th>` : ""}</tr>` +
      ranked(s).map((r) => `<tr data-player="${SK.esc(r.name)}" class="${r.place === 1 && s.hand_no ? "lead" : ""}${r.name === me ? " me" : ""}">
        <td class="place">${r.place}.</td><td>${SK.swatchSVG(r.colour, r.mark)}${SK.esc(r.name)}${r.name === me ? `<span class="you">you</span>` : ""}</td>
        <td class="num ${SK.tone(r.last, lowFirst(s))}">${r.last === null ? "" : sign(r.last)}</td>
        <td class="num total" data-total>${r.score}</td>${chips ? `<td class="num" data-chips>${chips[r.name]}</td>` : ""}</tr>`).join("") +
      `</table><p class="muted">${UI.standings_note || (lowFirst(s) ? "Lowest total wins." : "Highest total wins.")}${!goalOf(s) ? "" : " " + fill(UI.goal_note, {goal: goalOf(s)})}</p>`;
  }
  function chipsHTML(s) {
    const c = s.chips; if (!c) return "";
    return `<p>${Object.entries(c.counts).map(([p, n]) => `<span class="chip" data-chip-count="${SK.esc(p)}">${SK.esc(p)} <b>${n}</b></span>`).join("")}
      <span class="chip">pot <b data-pot>${c.pot}</b></span></p>
      <p class="muted">${SK.esc(c.note || "")}${c.game_over ? " <b>The chip game is over: a player has no chips.</b>" : ""}</p>
      ${c.error ? `<p class="refusal">Chips stop at ${SK.esc(c.error)}</p>` : ""}`;
  }
  function statusHTML(s) {
    const parts = [`<b>${SK.esc(s.title)}</b>`];
    if (s.phase === "game-over") parts.push(s.winner ? `<b>${SK.esc(s.winner)} wins!</b>` : "<b>Game over: no single winner</b>");
    parts.push(`Hand ${s.hand_no} played`);
    if (UI.progress && s.phase !== "game-over") parts.push(`Next: ${UI.progress.label} ${s.hand_no + 1} of ${UI.progress.of}${wildIn(s.hand_no + 1) ? `, <span class="wild" data-wild>${wildIn(s.hand_no + 1)} wild</span>` : ""}`);
    if (goalOf(s)) parts.push(`${SK.esc(UI.goal_label)} ${goalOf(s)}`);
    return parts.map((p) => `<span>${p}</span>`).join("");
  }
  function handSummary(h) { return SK.esc(h.summary || ""); }
  function handListHTML(s, t, amendable) {
    const hands = s.hands || [];
    if (!hands.length) return "no hand scored yet";
    const names = s.players.map((p) => p.name);
    return `<table class="grid"><tr><th>Hand</th>${names.map((n) => `<th class="num">${SK.esc(n)}</th>`).join("")}<th></th></tr>` +
      hands.slice().reverse().map((h) => `<tr data-hand="${h.hand_no}"><td>${h.hand_no}</td>${names.map((n) => { const x = (h.deltas || {})[n] || 0; return `<td class="num ${SK.tone(x, lowFirst(s))}">${sign(x)}</td>`; }).join("")}<td class="muted">${handSummary(h)}${amendable ? SK.amendHandLink(t, h.hand_no) : ""}</td></tr>`).join("") +
      `</table>` + ((s.corrections || []).length ? `<p class="muted">Corrections: ${s.corrections.map((c) => `${SK.esc(c.target)} ${sign(c.points)} (${SK.esc(c.reason)})`).join("; ")}</p>` : "");
  }
  function sheetHTML(s) {  // a score sheet: one box per meld of each player's sheet
    const names = s.players.map((p) => p.name), box = {};
    names.forEach((n) => { box[n] = {}; });
    (s.hands || []).forEach((h) => Object.entries((h.details || {}).melds || {}).forEach(([n, m]) => { box[n][m.meld] = m.points; }));
    return `<table class="grid sheet"><tr><th>Player</th>${Object.values(MELD_NAMES).map((m) => `<th title="${m}">${m.replace(" Man", "").replace("Indian ", "")}</th>`).join("")}<th class="num">Total</th></tr>` +
      names.map((n) => `<tr data-sheet="${SK.esc(n)}"><td>${SK.esc(n)}</td>${Object.keys(MELD_NAMES).map((m) => `<td class="box">${m in box[n] ? box[n][m] : "&middot;"}</td>`).join("")}<td class="num"><b>${s.players.find((p) => p.name === n).score}</b></td></tr>`).join("") + `</table>`;
  }
  function renderCommon(t) {
    const s = t.state, me = t.role.player;
    SK.$("#status").innerHTML = statusHTML(s) + (t.role.kind === "keeper" && !document.body.classList.contains("display") ? `<span class="muted">update ${t.seq}</span>` : "");
    SK.$("#winner").innerHTML = s.phase === "game-over" ? `<div class="winner-banner" data-winner>${s.winner ? `${SK.esc(s.winner)} wins the game!` : "Game over: tied, no single winner"}</div>` : "";
    SK.$("#standings").innerHTML = standingsHTML(s, me);
    SK.$("#chips-box").hidden = !s.chips; if (s.chips) SK.$("#chips").innerHTML = chipsHTML(s);
    SK.$("#sheet-box").hidden = !UI.meld_names; if (UI.meld_names) SK.$("#sheet").innerHTML = sheetHTML(s);
    SK.$("#hand-list").innerHTML = handListHTML(s, t, !!SK.$("#hand-form"));
  }

  /* --- the player's phone and the display -------------------------------------------------- */
  if (!SK.$("#hand-form")) {
    const t = new SK.Table(SK.boot, render);
    function render() {
      renderCommon(t);
      SK.confirmBox(t, (last, me) => `<h2>Hand ${last.hand_no}</h2><p>You: <b>${sign((last.deltas || {})[me] || 0)}</b></p>`, "My score is right");
      SK.amendNotice(t);
    }
    SK.onConfirm(t);
    SK.onReconfirm(t);
    render();
    return;
  }

  /* --- the keeper's tablet: the hand form ---------------------------------------------------- */
  const t = new SK.Table(SK.boot, render);
  const form = SK.$("#hand-form"), corr = SK.$("#correction-form");
  // the action being entered: its id (a repeat is stored once) and the update it started on
  const entering = {id: SK.newId(), seq: t.seq};
  const fresh = () => { entering.id = SK.newId(); entering.seq = t.seq; };
  const players = () => t.state.players.map((p) => p.name);
  const decks = (t.setup && t.setup.decks) || 1;
  let action = "hand", target = null, order = [], previewTimer = null;
  const aid = {};
  const picker = {el: null, obj: null};

  // Fields the app fills itself: the hand number, the sheet's used melds, Carousel's boxes won,
  // Tong-Its seats (the table's seat order).
  const AUTO = new Set(["hand_no", "used", "hands_won", "players"]);

  function playerOptions(required, current) {
    return (required ? "" : `<option value="">(nobody)</option>`) + players().map((p) => `<option${p === current ? " selected" : ""}>${SK.esc(p)}</option>`).join("");
  }
  function fieldHTML(f) {
    const lab = SK.esc(f.label), help = f.help ? `<small class="muted">${SK.esc(f.help)}</small>` : "";
    if (AUTO.has(f.name) || f.kind === "teams") return "";
    if (f.name === "turn") return `<label>${lab}<input type="number" name="turn" min="1" max="${f.maximum ?? ""}" value="${t.state.hand_no + 1}"></label>`;
    if (f.per_player) {
      if (f.kind === "cards") return `<fieldset data-field="${f.name}"><legend>${lab}${help ? " &middot; " + SK.esc(f.help) : ""}</legend>${players().map((p) =>
        `<div class="prow" data-row="${SK.esc(p)}" data-field="${f.name}"><span class="pname">${SK.esc(p)}</span><input class="cards" data-cards="${f.name}" data-p="${SK.esc(p)}" placeholder="tap here, then pick cards, or type codes">
         ${photoButton(f.name, p)}<span class="muted" data-count="${f.name}:${SK.esc(p)}"></span></div>`).join("")}</fieldset>`;
      if (f.kind === "int") return `<fieldset data-field="${f.name}"><legend>${lab}</legend><div class="row">${players().map((p) =>
        `<label>${SK.esc(p)}<input type="number" min="${f.minimum ?? ""}" step="1" data-int="${f.name}" data-p="${SK.esc(p)}"></label>`).join("")}</div></fieldset>`;
      if (f.kind === "group") return `<fieldset data-field="${f.name}"><legend>${lab}</legend>${players().map((p) =>
        `<div class="prow" data-row="${SK.esc(p)}" data-field="${f.name}"><span class="pname">${SK.esc(p)}</span>
          <select data-meld="${SK.esc(p)}" aria-label="${SK.esc(p)}'s meld">${meldChoices(p)}</select>
          <input class="cards" data-cards="${f.name}" data-p="${SK.esc(p)}" placeholder="the meld's cards" aria-label="${SK.esc(p)}'s meld cards">${photoButton(f.name, p)}
          <select data-suit="${SK.esc(p)}" title="Doctor's named suit" aria-label="${SK.esc(p)}: Doctor's named suit"><option value="">(suit)</option><option value="cl">\u2663 clubs</option><option value="sp">\u2660 spades</option><option value="he">\u2665 hearts</option><option value="di">\u2666 diamonds</option></select></div>`).join("")}</fieldset>`;
      return "";
    }
    switch (f.kind) {
      case "int": return `<label>${lab}<input type="number" name="${f.name}" step="1" min="${f.minimum ?? ""}" value="${f.default ?? ""}">${help}</label>`;
      case "bool": return `<label class="check"><input type="checkbox" name="${f.name}"${f.default ? " checked" : ""}> ${lab}</label>`;
      case "choice": return `<label>${lab}<select name="${f.name}">${f.required ? "" : `<option value="">(none)</option>`}${f.choices.map((c) => `<option value="${c}">${SK.esc(UI.choice_labels[c] || c)}</option>`).join("")}</select>${help}</label>`;
      case "player": return `<label>${lab}<select name="${f.name}">${playerOptions(f.required, null)}</select>${help}</label>`;
      case "players": return `<fieldset data-field="${f.name}"><legend>${lab}</legend>${players().map((p) => `<label class="check"><input type="checkbox" data-many="${f.name}" value="${SK.esc(p)}"> ${SK.esc(p)}</label>`).join("")}</fieldset>`;
      case "order": return `<fieldset data-field="${f.name}"><legend>${lab}: tap the players in order</legend><div class="order-list">${players().map((p) => `<button type="button" data-order="${SK.esc(p)}">${SK.esc(p)}</button>`).join("")}
        <button type="button" data-order-clear>Clear</button></div><p data-order-shown class="muted">nobody yet</p></fieldset>`;
      case "group": return `<fieldset data-field="${f.name}"><legend><label class="check"><input type="checkbox" data-group="${f.name}"> ${lab}</label></legend><div class="row">${f.fields.map((g) =>
        g.kind === "player" ? `<label>${SK.esc(g.label)}<select name="${f.name}.${g.name}">${playerOptions(true, null)}</select></label>`
          : g.kind === "bool" ? `<label class="check"><input type="checkbox" name="${f.name}.${g.name}"> ${SK.esc(g.label)}</label>` : "").join("")}</div></fieldset>`;
      default: return "";
    }
  }
  function photoButton(field, p) {  // a photo of the cards fills the row (the keeper checks it)
    return `<label class="btn photo-row" title="photograph ${SK.esc(p)}'s cards" aria-label="photograph ${SK.esc(p)}'s cards"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"/></svg><input type="file" accept="image/*" capture="environment" hidden data-photo="${field}" data-p="${SK.esc(p)}"></label>`;
  }
  async function readPhoto(input) {
    const file = input.files && input.files[0]; if (!file) return;
    const row = SK.$(`input[data-cards="${input.dataset.photo}"][data-p="${CSS.escape(input.dataset.p)}"]`, form);
    SK.toast("Reading the cards\u2026");
    const {ok, data} = await SK.recognizePhoto(t.id, file);
    input.value = "";
    if (!ok) { SK.$("#refusal").innerHTML = `<div class="refusal" data-photo-error>Photo: ${SK.esc(data.error)}</div>`; return; }
    const codes = data.cards.map((c) => c.code), unsure = data.cards.filter((c) => c.check).map((c) => c.code);
    row.value = [...cardsOf(row), ...codes].join(" ");
    selectTarget(row); cardCounts(); schedulePreview();
    SK.toast(`${codes.length} card(s) read from the photo${unsure.length ? `; check ${unsure.join(" ")}` : ""}`, unsure.length > 0);
  }
  function usedMelds(p) {
    return (t.state.hands || []).map((h) => (((h.details || {}).melds || {})[p] || {}).meld).filter(Boolean);
  }
  function meldChoices(p) {
    const used = usedMelds(p);
    return Object.entries(MELD_NAMES).filter(([m]) => !used.includes(m)).map(([m, l]) => `<option value="${m}">${l}</option>`).join("");
  }
  function extrasHTML() {
    const whole = UI.whole_suit;
    if (whole) return `<label>${SK.esc(whole.label)}<select id="moon"><option value="">(nobody)</option>${players().map((p) => `<option>${SK.esc(p)}</option>`).join("")}</select>
      <small class="muted">fills in ${SK.esc(whole.cards.join(" "))} for that player${t.state.options.moon ? ` (option moon=${SK.esc(t.state.options.moon)})` : ""}</small></label>`;
    if (UI.wild_rank) return `<p>Hand <b>${t.state.hand_no + 1}</b> of ${UI.progress ? UI.progress.of : "?"}: <span class="wild" data-wild>${wildIn(t.state.hand_no + 1)} are wild</span></p>`;
    return "";
  }
  function buildForm() {
    order = []; target = null;
    const fields = GAME.hand_form.map(fieldHTML).join("");
    const hasCards = GAME.hand_form.some((f) => f.kind === "cards" || (f.kind === "group" && f.per_player));
    form.innerHTML = `<h2>Hand ${t.state.hand_no + 1}</h2>${extrasHTML()}<div class="row">${fields.replace(/<fieldset[\s\S]*?<\/fieldset>/g, "")}</div>${(fields.match(/<fieldset[\s\S]*?<\/fieldset>/g) || []).join("")}` +
      (hasCards ? `<div id="h-picker"></div>` : "");
    if (hasCards) {
      picker.el = SK.$("#h-picker");
      picker.obj = new SK.Picker(picker.el, {placeholder: "Tap a player's cards box above, then tap a rank and suits", onChange: (cards) => {
        if (!target || SK.cardTokens(target.value).join(" ") === cards.join(" ")) return;
        target.value = cards.join(" "); cardCounts(); schedulePreview();
      }});
      const first = SK.$("input[data-cards]", form); if (first) selectTarget(first);
      if (GAME.deck === "standard") SK.$$("[data-suit]", picker.el).forEach((b) => { if (!["cl", "sp", "he", "di"].includes(b.dataset.suit)) b.hidden = true; });
      if (GAME.deck === "standard") SK.$(".jokers", picker.el).hidden = true;
    }
    cardCounts();
    SK.$("#preview-box").innerHTML = "";
  }
  function selectTarget(input) {
    target = input;
    SK.$$(".prow", form).forEach((r) => r.classList.toggle("sel", r.contains(input)));
    if (picker.obj) { picker.obj.cards = SK.cardTokens(input.value); picker.obj.rank = picker.obj.suit = picker.obj.sticky = null; picker.obj.render(); }
  }
  function cardCounts() {
    SK.$$("input[data-cards]", form).forEach((i) => {
      const el = SK.$(`[data-count="${i.dataset.cards}:${i.dataset.p}"]`, form); if (!el) return;
      const codes = SK.cardTokens(i.value).map(SK.normCode);
      el.textContent = UI.card_points ? `${codes.reduce((a, c) => a + (UI.card_points[c] || 0), 0)} pts` : codes.length ? `${codes.length} cards` : "";
    });
  }
  /* whoever ended the hand with no cards, whatever the game calls that field (the pack marks
     it empty_hand, maybe only for one kind of ending: Tong-Its' caller of a Tongit) */
  function emptyHanded() {
    const value = (name) => (form.elements[name] && form.elements[name].value) || "";
    return new Set(GAME.hand_form.filter((f) => f.kind === "player" && f.empty_hand
      && (f.empty_hand === true || value(f.empty_hand.field) === f.empty_hand.value)).map((f) => value(f.name)).filter(Boolean));
  }
  function cardsOf(input) { return SK.cardTokens(input.value); }
  function entry() {
    const e = {};
    GAME.hand_form.forEach((f) => {
      if (AUTO.has(f.name) && f.name !== "used") return;
      if (f.name === "used") { e.used = Object.fromEntries(players().map((p) => [p, usedMelds(p)])); return; }
      if (f.per_player && f.kind === "cards") {
        // a blank row is "no cards" only for whoever went out (or knocked); else it is left out,
        // so the pack says whose cards are missing rather than scoring them 0
        const out = emptyHanded();
        const m = {}; SK.$$(`input[data-cards="${f.name}"]`, form).forEach((i) => { const c = cardsOf(i); if (c.length || out.has(i.dataset.p) || UI.send_empty_cards) m[i.dataset.p] = c; });
        if (Object.keys(m).length || f.required) e[f.name] = m; return;
      }
      if (f.per_player && f.kind === "int") {
        const m = {}; SK.$$(`input[data-int="${f.name}"]`, form).forEach((i) => { if (i.value !== "") m[i.dataset.p] = Number(i.value); });
        if (Object.keys(m).length || f.required) e[f.name] = m; return;
      }
      if (f.per_player && f.kind === "group") {
        const m = {};
        players().forEach((p) => {
          const cards = cardsOf(SK.$(`input[data-cards="${f.name}"][data-p="${CSS.escape(p)}"]`, form));
          const meld = SK.$(`select[data-meld="${CSS.escape(p)}"]`, form).value, suit = SK.$(`select[data-suit="${CSS.escape(p)}"]`, form).value;
          if (cards.length) m[p] = suit ? {meld, cards, suit} : {meld, cards};
        });
        e[f.name] = m; return;
      }
      if (f.kind === "players") { e[f.name] = SK.$$(`[data-many="${f.name}"]:checked`, form).map((i) => i.value); return; }
      if (f.kind === "order") { if (order.length || f.required) e[f.name] = order.slice(); return; }
      if (f.kind === "group") {
        const on = SK.$(`[data-group="${f.name}"]`, form); if (!on || !on.checked) return;
        const g = {}; f.fields.forEach((x) => { const el = form.elements[`${f.name}.${x.name}`]; if (el) g[x.name] = el.type === "checkbox" ? el.checked : el.value; });
        e[f.name] = g; return;
      }
      const el = form.elements[f.name]; if (!el) return;
      if (f.kind === "bool") { if (el.checked || f.required) e[f.name] = el.checked; return; }
      if (el.value === "") { if (f.required) e[f.name] = f.kind === "int" ? null : ""; return; }
      e[f.name] = f.kind === "int" ? Number(el.value) : el.value;
    });
    return e;
  }
  function previewHTML(before, after) {
    const h = after.hands[after.hands.length - 1], d = h.details || {};
    const rows = after.players.map((p) => {
      const delta = h.deltas[p.name] || 0, dw = d.deadwood ? d.deadwood[p.name] : d.arrangements ? (d.arrangements[p.name] || {}).deadwood : undefined;
      const pay = d.payments ? d.payments[p.name] : undefined, chipsNow = after.chips ? after.chips.counts[p.name] : undefined;
      return `<tr><td>${SK.esc(p.name)}</td>${dw !== undefined || d.deadwood || d.arrangements ? `<td class="num">${dw ?? ""}</td>` : ""}<td class="num ${SK.tone(delta, lowFirst(after))}"><b>${sign(delta)}</b></td><td class="num">${p.score}</td>${after.chips ? `<td class="num">${chipsNow} <span class="muted">(${sign(chipsNow - before.chips.counts[p.name])})</span></td>` : ""}${pay !== undefined ? "" : ""}</tr>`;
    }).join("");
    const notes = [];
    if (d.hand_winner) notes.push(`Hand won by <b>${SK.esc(d.hand_winner)}</b>`);
    if (d.made !== undefined) notes.push(d.made ? "Bid <b>made</b>" : "Bid <b>failed</b>");
    (d.notes || []).forEach((n) => notes.push(SK.esc(n)));
    if (d.melds) Object.entries(d.melds).forEach(([p, m]) => notes.push(`${SK.esc(p)}: ${MELD_NAMES[m.meld] || m.meld} ${m.points}${m.reason ? ` <span class="muted">(${SK.esc(m.reason)})</span>` : ""}`));
    if (after.phase === "game-over") notes.push(`<b>This hand ends the game: ${after.winner ? SK.esc(after.winner) + " wins" : "no single winner"}</b>`);
    const dwHead = d.deadwood || d.arrangements ? `<th class="num">Deadwood</th>` : "";
    return `<table class="grid" id="preview-table"><tr><th>Player</th>${dwHead}<th class="num">This hand</th><th class="num">New total</th>${after.chips ? `<th class="num">Chips</th>` : ""}</tr>${rows}</table>
      <p>${notes.join("<br>")}</p><p class="muted">${SK.esc(h.rule)}. Check, then Commit hand.</p>`;
  }
  async function preview(quiet) {
    if (action !== "hand") return;
    const r = await SK.api("POST", `/api/tables/${t.id}/dry-run`, {event: {type: "hand", entry: entry()}});
    if (r.ok) { SK.$("#preview-box").innerHTML = previewHTML(t.state, r.data.state); SK.$("#refusal").innerHTML = ""; }
    else if (quiet) SK.$("#preview-box").innerHTML = `<p class="muted" data-incomplete>Not ready to score yet: ${SK.esc(r.data.error)}</p>`;
    else { SK.$("#preview-box").innerHTML = ""; SK.$("#refusal").innerHTML = `<div class="refusal" data-refusal>Refused: ${SK.esc(r.data.error)} <span class="muted">Nothing was stored.</span></div>`; }
  }
  function schedulePreview() { saveHandDraft(); clearTimeout(previewTimer); previewTimer = setTimeout(() => preview(true), 350); }
  /* the hand being entered stays on this device until it is stored (a reload or Back keeps it) */
  const drafts = new SK.Draft(t.id, "hand");
  function draftKey(el) {
    if (el.name) return el.name;
    const d = el.dataset, kind = ["cards", "int", "many", "meld", "suit", "group"].find((k) => d[k] !== undefined);
    return kind ? `${kind}=${d[kind]}${d.p !== undefined ? `@${d.p}` : ""}${kind === "many" ? `:${el.value}` : ""}` : "";
  }
  function draftFields() { return Array.from(form.elements).filter((el) => el.matches("input, select") && el.type !== "file" && draftKey(el)); }
  function saveHandDraft() {
    const values = Object.fromEntries(draftFields().map((el) => [draftKey(el), el.type === "checkbox" ? el.checked : el.value]));
    drafts.save({hand_no: t.state.hand_no, values, order});
  }
  function restoreHandDraft() {
    const d = drafts.load();
    if (!d || d.hand_no !== t.state.hand_no) return;
    draftFields().forEach((el) => { const v = d.values[draftKey(el)]; if (v === undefined) return; if (el.type === "checkbox") el.checked = !!v; else el.value = v; });
    order = (d.order || []).filter((p) => players().includes(p));
    const shown = SK.$("[data-order-shown]", form);
    if (shown) shown.innerHTML = order.length ? order.map((p, i) => `${i + 1}. <b>${SK.esc(p)}</b>`).join(" &nbsp; ") : "nobody yet";
    SK.$$("[data-order]", form).forEach((x) => { x.disabled = order.includes(x.dataset.order); });
    if (target) selectTarget(target);
    cardCounts(); clearTimeout(previewTimer); previewTimer = setTimeout(() => preview(true), 50);
  }
  async function commit() {
    let ev;
    if (action === "hand") ev = {type: "hand", entry: entry()};
    else if (action === "correction") ev = {type: "correction", target: corr.elements.target.value, points: parseInt(corr.elements.points.value, 10), reason: corr.elements.reason.value};
    else {
      const q = await SK.undoQuestion(t.id);
      if (q === null) { SK.$("#refusal").innerHTML = `<div class="refusal" data-refusal>There is nothing to undo.</div>`; return; }
      if (!confirm(q)) return;
      ev = {type: "undo"};
    }
        const r = await SK.busy(SK.$("#submit"), () => SK.api("POST", `/api/tables/${t.id}/events`, {base_seq: entering.seq, event: ev, action_id: entering.id}));
    if (!r) return;
    if (r.status === 200 && r.data.repeat) {
      t.adopt(r.data.table_seq, r.data.state); entering.seq = t.seq;
      SK.$("#refusal").innerHTML = SK.repeatHTML(r.data);
    } else if (r.status === 201) {
      const id = entering.id, same = action === "hand";
      t.adopt(r.data.seq, r.data.state);
      SK.toast(action === "hand" ? `Hand ${r.data.state.hand_no} stored` : action === "undo" ? "Undone" : "Correction stored");
      SK.$("#refusal").innerHTML = "";
      if (action === "correction") { corr.elements.points.value = ""; corr.elements.reason.value = ""; }
      resetAid(); renderAid();
      if (action === "hand") drafts.clear();
      // the form is rebuilt by render() when the hand number changes (from this reply or the
      // live stream, whichever comes first), never after the keeper started the next hand
      choose("hand");
      if (same) entering.id = id;  // a second tap on Commit hand is answered, not stored again
      entering.seq = t.seq;
    } else if (r.status === 409) {
      t.adopt(r.data.seq, r.data.state); entering.seq = t.seq;
      SK.$("#refusal").innerHTML = SK.staleHTML(r.data);
    } else SK.$("#refusal").innerHTML = `<div class="refusal" data-refusal>Refused: ${SK.esc(r.data.error)} <span class="muted">Nothing was stored.</span></div>`;
  }
  function choose(a) {
    action = a; fresh();
    SK.$$("#actions button").forEach((b) => b.classList.toggle("on", b.dataset.action === a));
    form.hidden = a !== "hand"; corr.hidden = a !== "correction";
    SK.$("#preview").hidden = a !== "hand";
    SK.$("#submit").textContent = a === "hand" ? "Commit hand" : a === "undo" ? "Undo the last action" : "Enter correction";
    SK.$("#refusal").innerHTML = ""; if (a !== "hand") SK.$("#preview-box").innerHTML = "";
    SK.options(corr.elements.target, players().map((p) => [p, p]), corr.elements.target.value || players()[0]);
  }
  function resetAid() { Object.keys(aid).forEach((k) => { aid[k] = 0; }); }
  function renderAid() {  // the keeper's tally counters of the hand in play, where the game has them
    if (!UI.counters.length) return;
    const box = SK.$("#aid-box"); box.hidden = false;
    box.innerHTML = `<h2>Keeper aid (this hand)</h2><div class="row">${UI.counters.map((c) =>
      `<span class="counter">${SK.esc(c.label)} <b data-${c.name}>${(aid[c.name] || 0) * c.step}</b> <button type="button" data-aid="${c.name}+">${SK.esc(c.button)}</button></span>`).join("")}
      <button type="button" data-aid="reset">Reset</button></div><p class="muted">${SK.esc(UI.counters_note || "")}</p>`;
  }
  function render(what) {
    renderCommon(t);
    const meta = t.meta || {};
    if (what !== "state") renderSeats(meta);
    if (what === "state" && form.dataset.hand !== String(t.state.hand_no)) { form.dataset.hand = String(t.state.hand_no); buildForm(); restoreHandDraft(); }
  }

  form.addEventListener("focusin", (ev) => { if (ev.target.matches("input[data-cards]")) selectTarget(ev.target); });
  form.addEventListener("click", (ev) => {
    const b = ev.target.closest("button"); if (!b) return;
    if (b.dataset.order !== undefined) { if (!order.includes(b.dataset.order)) order.push(b.dataset.order); }
    else if (b.dataset.orderClear !== undefined) order = [];
    else return;
    SK.$("[data-order-shown]", form).innerHTML = order.length ? order.map((p, i) => `${i + 1}. <b>${SK.esc(p)}</b>`).join(" &nbsp; ") : "nobody yet";
    SK.$$("[data-order]", form).forEach((x) => { x.disabled = order.includes(x.dataset.order); });
    schedulePreview();
  });
  form.addEventListener("input", (ev) => {
    if (ev.target.matches("input[data-cards]") && picker.obj && ev.target === target) picker.obj.cards = cardsOf(ev.target), picker.obj.render();
    cardCounts(); schedulePreview();
  });
  form.addEventListener("change", (ev) => {
    if (ev.target.matches("input[data-photo]")) { readPhoto(ev.target); return; }
    if (ev.target.id === "moon") {
      const p = ev.target.value;
      if (p) {
        const full = [];
        for (let k = 0; k < decks; k++) full.push(...UI.whole_suit.cards);
        const field = UI.whole_suit.field;
        SK.$$(`input[data-cards="${field}"]`, form).forEach((i) => { i.value = i.dataset.p === p ? full.join(" ") : ""; });
        const mine = SK.$(`input[data-cards="${field}"][data-p="${CSS.escape(p)}"]`, form); if (mine) selectTarget(mine);
      }
    }
    cardCounts(); schedulePreview();
  });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  [form, corr].forEach((f) => { f.addEventListener("input", fresh); f.addEventListener("change", fresh); });
  form.addEventListener("click", (ev) => { if (ev.target.closest("button")) fresh(); });
  SK.$("#actions").addEventListener("click", (ev) => { const b = ev.target.closest("button[data-action]"); if (b) choose(b.dataset.action); });
  SK.$("#preview").addEventListener("click", () => preview(false));
  SK.$("#submit").addEventListener("click", commit);
  SK.$("#aid-box").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-aid]"); if (!b) return;
    if (b.dataset.aid === "reset") resetAid();
    else { const name = b.dataset.aid.replace(/\+$/, ""); aid[name] = (aid[name] || 0) + 1; }
    renderAid();
  });
  SK.$("#rotate").addEventListener("click", () => SK.rotateJoin(t.id));
  SK.onSeats(t);
  function renderSeats(meta) {  // keeps a seat's QR code open while the seats change
    const qr = SK.$("#seat-qr"), open = qr ? qr.innerHTML : "";
    SK.$("#seats").innerHTML = SK.seatsHTML(meta, t.id);
    SK.$("#seat-qr").innerHTML = open;
  }
  form.dataset.hand = String(t.state.hand_no);
  buildForm(); restoreHandDraft(); choose("hand"); renderAid(); render();
})();
