/* Start page: players, peg colours, teams and options -> POST /api/tables. */
"use strict";
(() => {
  const PAIRS = JSON.parse(document.getElementById("colours").textContent);  // [name, #rrggbb], in peg order
  const COLOURS = Object.fromEntries(PAIRS), names = PAIRS.map(([n]) => n);
  const form = document.getElementById("start");
  const playersEl = document.getElementById("players");
  const teamsSel = document.getElementById("teams");
  const teamList = document.getElementById("team-list");
  const defaultNames = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"];
  const GAMES = Object.fromEntries(JSON.parse(document.getElementById("games-data").textContent).map((g) => [g.name, g]));
  const packBox = document.getElementById("pack-options"), tossBox = document.getElementById("toss-only");
  const game = () => GAMES[(form.querySelector("[name=game]:checked") || {}).value] || Object.values(GAMES)[0];
  const isPack = () => game().engine === "hands";
  const teamNames = ["North", "South", "East"];

  const colourSelect = (name, idx) => `<select name="${name}">${names.map((n, i) =>
    `<option value="${COLOURS[n]}"${i === idx ? " selected" : ""}>${n}</option>`).join("")}</select>`;

  function addPlayer() {
    const n = playersEl.children.length; if (n >= Math.min(8, game().players.max)) return;
    const row = document.createElement("div"); row.className = "row player";
    row.innerHTML = `<label>Seat ${n + 1}<input name="name" value="${defaultNames[n]}" maxlength="24" required></label>
      <label>Peg colour${colourSelect("colour", n)}</label><label>Team<select name="team"></select></label>`;
    playersEl.appendChild(row); teams();
  }
  function teams() {
    const size = +teamsSel.value, rows = Array.from(playersEl.children), n = rows.length;
    const count = size ? Math.floor(n / size) : 0;
    rows.forEach((row, i) => {
      const sel = row.querySelector("select[name=team]");
      row.querySelector("select[name=team]").parentElement.style.display = size ? "" : "none";
      row.querySelector("select[name=colour]").parentElement.style.display = size ? "none" : "";
      const keep = sel.value;
      sel.innerHTML = Array.from({length: count}, (_, t) => `<option value="${t}">${teamNames[t]}</option>`).join("");
      sel.value = keep !== "" && +keep < count ? keep : String(count ? i % count : 0);
    });
    teamList.innerHTML = size ? Array.from({length: count}, (_, t) =>
      `<div class="row team"><label>Team ${t + 1} name<input name="team-name" value="${teamNames[t]}" maxlength="24"></label>
       <label>Peg colour${colourSelect("team-colour", t)}</label></div>`).join("") : "";
    if (size && n % size) teamList.innerHTML += `<p class="refusal">${n} players cannot make equal teams of ${size}.</p>`;
  }
  document.getElementById("add-player").onclick = addPlayer;
  document.getElementById("remove-player").onclick = () => { if (playersEl.children.length > Math.max(2, game().players.min)) { playersEl.lastElementChild.remove(); teams(); } };
  /* the chosen game's own options (from its rules pack), with their defaults */
  function optionField(o) {
    const label = `<span>${SK.esc(o.name.replace(/_/g, " "))} (<code>${SK.esc(o.name)}</code>)</span>`;
    const title = ` title="${SK.esc(o.help)}"`;
    if (o.kind === "choice") return `<label${title}>${label}<select data-opt="${o.name}" data-kind="choice">${o.choices.map((c) => `<option${c === o.default ? " selected" : ""}>${SK.esc(c)}</option>`).join("")}</select><small>${SK.esc(o.help)}</small></label>`;
    if (o.kind === "bool") return `<label class="check"${title}><input type="checkbox" data-opt="${o.name}" data-kind="bool"${o.default ? " checked" : ""}> ${label}</label>`;
    const ph = o.default === null ? "none" : String(o.default);
    const kind = o.kind === "int-list" ? "int-list" : "int";
    return `<label${title}>${label}<input data-opt="${o.name}" data-kind="${kind}" ${kind === "int" ? `type="number" step="1"${o.minimum !== undefined ? ` min="${o.minimum}"` : ""}` : ""} placeholder="${SK.esc(ph)}" value="${o.default === null || kind === "int-list" ? "" : o.default}"><small>${SK.esc(o.help)}</small></label>`;
  }
  function chooseGame() {
    const g = game(), pack = isPack();
    tossBox.hidden = pack; packBox.hidden = !pack;
    SK.$$(".game-choice").forEach((el) => el.classList.toggle("on", el.dataset.game === g.name));
    tossOptionsFor(g.name);
    if (pack) {
      teamsSel.value = "0"; teams();
      packBox.innerHTML = `<h2>Options <span class="muted">(${SK.esc(g.title)})</span></h2><div class="row">${(g.options || []).map(optionField).join("") || `<span class="muted">This game has no options.</span>`}
        <label><span>Decks (<code>decks</code>)</span><input type="number" data-opt="decks" data-kind="int" min="1" max="20" value="1"></label>
        ${g.chips ? `<label><span>Chips each player starts with</span><input type="number" id="start-chips" min="0" step="1" placeholder="${g.ui.start_chips}">${g.ui.start_chips_help ? `<small data-chips-help>${SK.esc(g.ui.start_chips_help)}</small>` : ""}</label>` : ""}</div>
        <p class="muted">${g.players.min === g.players.max ? `${g.players.min} players.` : `${g.players.min} to ${g.players.max} players.`} The keeper enters each hand; the app scores it.</p>`;
    }
    while (playersEl.children.length < g.players.min) addPlayer();
    while (playersEl.children.length > Math.min(g.players.max, 8)) playersEl.lastElementChild.remove();
    teams();
  }
  /* the Toss options that apply to the chosen ruleset only, and its goal */
  function tossOptionsFor(name) {
    SK.$$("[data-only]", tossBox).forEach((el) => { el.hidden = el.dataset.only !== name; });
    const goal = SK.$("[data-goal]", tossBox); if (goal) goal.placeholder = String((GAMES[name] || {}).goal || "");
  }
  function packOptions() {
    const out = {};
    SK.$$("[data-opt]", packBox).forEach((el) => {
      const k = el.dataset.kind, v = el.type === "checkbox" ? el.checked : el.value.trim();
      if (k === "bool") out[el.dataset.opt] = v;
      else if (v === "") return;
      else if (k === "int") out[el.dataset.opt] = Number(v);
      else if (k === "int-list") out[el.dataset.opt] = v.split(/[\s,]+/).filter(Boolean).map(Number);
      else out[el.dataset.opt] = v;
    });
    return out;
  }
  SK.$$("[name=game]", form).forEach((el) => el.addEventListener("change", chooseGame));
  teamsSel.onchange = teams;
  addPlayer(); addPlayer(); addPlayer(); addPlayer();
  chooseGame();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const rows = Array.from(playersEl.children);
    const players = rows.map((r) => ({name: r.querySelector("[name=name]").value.trim(), colour: r.querySelector("[name=colour]").value}));
    const size = +teamsSel.value;
    let teamsOut = [];
    if (size) {
      const tnames = SK.$$("[name=team-name]", teamList).map((i) => i.value.trim());
      const tcols = SK.$$("[name=team-colour]", teamList).map((i) => i.value);
      teamsOut = tnames.map((name, t) => ({name, colour: tcols[t],
        members: rows.filter((r) => +r.querySelector("[name=team]").value === t).map((r) => r.querySelector("[name=name]").value.trim())}));
    }
    const f = new FormData(form);
    if (isPack()) {
      const chips = SK.$("#start-chips");
      const packBody = {game: game().name, players, options: packOptions()};
      if (chips && chips.value !== "") packBody.start_chips = Number(chips.value);
      const r = await SK.api("POST", "/api/tables", packBody);
      if (r.ok) location.href = r.data.urls.keeper;
      else document.getElementById("start-error").innerHTML = `<p class="refusal">${SK.esc(r.data.error)}</p>`;
      return;
    }
    const body = {
      game: f.get("game"), players, teams: teamsOut, auto_accept: !!f.get("auto_accept"),
      options: {ace: f.get("ace"), goal: f.get("goal") ? +f.get("goal") : null, decks: +f.get("decks") || 1,
                chips_per_points: +f.get("chips_per_points") || 10, wild_scoring: !!f.get("wild_scoring"),
                toss_joker: f.get("toss_joker") || "shown", double_cross_back: !!f.get("double_cross_back"),
                double_cross_takes: f.get("double_cross_takes") || "whole-play"},
    };
    const r = await SK.api("POST", "/api/tables", body);
    if (r.ok) location.href = r.data.urls.keeper;
    else document.getElementById("start-error").innerHTML = `<p class="refusal">${SK.esc(r.data.error)}</p>`;
  });
})();
