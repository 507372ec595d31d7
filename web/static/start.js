/* Start page: the game, players, peg colours, teams and the game's options -> POST /api/tables
   in the one setup format that scorekeeper.game.read_setup reads (exports and replay too):
   {"game", "players": [names], "teams": {team: [members]}, "colours": {owner: colour},
    "options": {...}} (+ "decks", "start_chips" for a game entered hand by hand, + "auto_accept").
   A board left on "next free colour" gets its colour from the server (pegboard.board_colours). */
"use strict";
(() => {
  const PAIRS = JSON.parse(document.getElementById("colours").textContent);  // [name, #rrggbb], in peg order
  const form = document.getElementById("start");
  const playersEl = document.getElementById("players");
  const teamsSel = document.getElementById("teams");
  const teamList = document.getElementById("team-list");
  const defaultNames = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"];
  const GAMES = Object.fromEntries(JSON.parse(document.getElementById("games-data").textContent).map((g) => [g.name, g]));
  const optionsBox = document.getElementById("game-options"), packBox = document.getElementById("pack-options");
  const tossBox = document.getElementById("toss-only"), tossExtra = document.getElementById("toss-extra");
  const game = () => GAMES[(form.querySelector("[name=game]:checked") || {}).value] || Object.values(GAMES)[0];
  const isPack = () => game().engine === "hands";
  const teamNames = ["North", "South", "East"];

  const colourSelect = (name) => `<select name="${name}"><option value="">next free colour</option>${PAIRS.map(([n, hex]) =>
    `<option value="${hex}">${n}</option>`).join("")}</select>`;

  function addPlayer() {
    const n = playersEl.children.length; if (n >= game().players.max) return;
    const row = document.createElement("div"); row.className = "row player";
    row.innerHTML = `<label>Seat ${n + 1}<input name="name" value="${defaultNames[n] || `Player ${n + 1}`}" maxlength="24" required></label>
      <label>Peg colour${colourSelect("colour")}</label><label>Team<select name="team"></select></label>`;
    playersEl.appendChild(row); teams();
  }
  function teams() {
    const size = isPack() ? 0 : +teamsSel.value, rows = Array.from(playersEl.children), n = rows.length;
    const count = size ? Math.floor(n / size) : 0;
    rows.forEach((row, i) => {
      const sel = row.querySelector("select[name=team]");
      sel.parentElement.style.display = size ? "" : "none";
      row.querySelector("select[name=colour]").parentElement.style.display = size ? "none" : "";
      const keep = sel.value;
      sel.innerHTML = Array.from({length: count}, (_, t) => `<option value="${t}">${teamNames[t]}</option>`).join("");
      sel.value = keep !== "" && +keep < count ? keep : String(count ? i % count : 0);
    });
    teamList.innerHTML = size ? Array.from({length: count}, (_, t) =>
      `<div class="row team"><label>Team ${t + 1} name<input name="team-name" value="${teamNames[t]}" maxlength="24"></label>
       <label>Peg colour${colourSelect("team-colour")}</label></div>`).join("") : "";
    if (size && n % size) teamList.innerHTML += `<p class="refusal">${n} players cannot make equal teams of ${size}.</p>`;
  }
  document.getElementById("add-player").onclick = addPlayer;
  document.getElementById("remove-player").onclick = () => { if (playersEl.children.length > game().players.min) { playersEl.lastElementChild.remove(); teams(); } };
  /* one field per option the chosen game declares (scorekeeper.options.Option), with its default */
  function optionField(o) {
    const label = `<span>${SK.esc(o.label || o.name.replace(/_/g, " "))} (<code>${SK.esc(o.name)}</code>)</span>`;
    const title = ` title="${SK.esc(o.help)}"`, help = `<small>${SK.esc(o.help)}</small>`;
    if (o.kind === "choice") return `<label${title}>${label}<select name="${o.name}" data-opt="${o.name}" data-kind="choice">${o.choices.map((c) => `<option value="${SK.esc(c)}"${c === o.default ? " selected" : ""}>${SK.esc(c)}</option>`).join("")}</select>${help}</label>`;
    if (o.kind === "bool") return `<label class="check"${title}><input type="checkbox" name="${o.name}" data-opt="${o.name}" data-kind="bool"${o.default ? " checked" : ""}> ${label}</label>`;
    const unset = o.unset !== undefined ? o.unset : o.default;
    const ph = unset === null ? "none" : String(unset);
    const kind = o.kind === "int-list" ? "int-list" : "int";
    const range = kind === "int" ? ` type="number" step="1"${o.minimum !== undefined ? ` min="${o.minimum}"` : ""}${o.maximum !== undefined ? ` max="${o.maximum}"` : ""}` : "";
    return `<label${title}>${label}<input name="${o.name}" data-opt="${o.name}" data-kind="${kind}"${range} placeholder="${SK.esc(ph)}" value="${o.default === null || kind === "int-list" ? "" : o.default}">${help}</label>`;
  }
  function chooseGame() {
    const g = game(), pack = isPack();
    tossBox.hidden = pack; tossExtra.hidden = pack; packBox.hidden = !pack;
    SK.$$(".game-choice").forEach((el) => el.classList.toggle("on", el.dataset.game === g.name));
    optionsBox.innerHTML = `<h2>Options <span class="muted">(${SK.esc(g.title)})</span></h2><div class="row">${(g.options || []).map(optionField).join("") || `<span class="muted">This game has no options.</span>`}</div>`;
    packBox.innerHTML = pack ? `<div class="row"><label><span>Decks (<code>decks</code>)</span><input type="number" id="pack-decks" min="${g.decks.min}" max="${g.decks.max}" value="1"></label>
        ${g.chips ? `<label><span>Chips each player starts with</span><input type="number" id="start-chips" min="0" step="1" placeholder="${g.ui.start_chips}">${g.ui.start_chips_help ? `<small data-chips-help>${SK.esc(g.ui.start_chips_help)}</small>` : ""}</label>` : ""}</div>
        <p class="muted">${g.players.min === g.players.max ? `${g.players.min} players.` : `${g.players.min} to ${g.players.max} players.`} The keeper enters each hand; the app scores it.</p>` : "";
    if (pack) teamsSel.value = "0";
    while (playersEl.children.length < g.players.min) addPlayer();
    while (playersEl.children.length > g.players.max) playersEl.lastElementChild.remove();
    teams();
  }
  function chosenOptions() {
    const out = {};
    SK.$$("[data-opt]", optionsBox).forEach((el) => {
      const k = el.dataset.kind, v = el.type === "checkbox" ? el.checked : el.value.trim();
      if (k === "bool") out[el.dataset.opt] = v;
      else if (v === "") return;
      else if (k === "int") out[el.dataset.opt] = Number(v);
      else if (k === "int-list") out[el.dataset.opt] = v.split(/[\s,]+/).filter(Boolean).map(Number);
      else out[el.dataset.opt] = v;
    });
    return out;
  }
  /* the table setup in the one format (scorekeeper.game.read_setup) */
  function setup() {
    const g = game(), rows = Array.from(playersEl.children);
    const nameOf = (r) => r.querySelector("[name=name]").value.trim();
    const body = {game: g.name, players: rows.map(nameOf), options: chosenOptions(), colours: {}};
    const size = isPack() ? 0 : +teamsSel.value;
    if (size) {
      body.teams = {};
      SK.$$(".team", teamList).forEach((team, t) => {
        const name = team.querySelector("[name=team-name]").value.trim();
        body.teams[name] = rows.filter((r) => +r.querySelector("[name=team]").value === t).map(nameOf);
        const colour = team.querySelector("[name=team-colour]").value;
        if (colour) body.colours[name] = colour;
      });
    } else {
      rows.forEach((r) => { const colour = r.querySelector("[name=colour]").value; if (colour) body.colours[nameOf(r)] = colour; });
    }
    if (isPack()) {
      const decks = SK.$("#pack-decks"), chips = SK.$("#start-chips");
      if (decks && decks.value !== "") body.decks = Number(decks.value);
      if (chips && chips.value !== "") body.start_chips = Number(chips.value);
    } else {
      body.auto_accept = form.querySelector("[name=auto_accept]").checked;
    }
    return body;
  }
  SK.$$("[name=game]", form).forEach((el) => el.addEventListener("change", chooseGame));
  teamsSel.onchange = teams;
  addPlayer(); addPlayer(); addPlayer(); addPlayer();
  chooseGame();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await SK.api("POST", "/api/tables", setup());
    if (r.ok) location.href = r.data.urls.keeper;
    else document.getElementById("start-error").innerHTML = `<p class="refusal">${SK.esc(r.data.error)}</p>`;
  });
})();
