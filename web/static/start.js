/* Start page: players, peg colours, teams and options -> POST /api/tables. */
"use strict";
(() => {
  const PAIRS = JSON.parse(document.getElementById("colours").textContent);  // [name, #rrggbb], in peg order
  const COLOURS = Object.fromEntries(PAIRS), names = PAIRS.map(([n]) => n);
  const form = document.getElementById("start");
  const playersEl = document.getElementById("players");
  const teamsSel = document.getElementById("teams");
  const teamList = document.getElementById("team-list");
  const defaultNames = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"];
  const teamNames = ["North", "South", "East"];

  const colourSelect = (name, idx) => `<select name="${name}">${names.map((n, i) =>
    `<option value="${COLOURS[n]}"${i === idx ? " selected" : ""}>${n}</option>`).join("")}</select>`;

  function addPlayer() {
    const n = playersEl.children.length; if (n >= 6) return;
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
  document.getElementById("remove-player").onclick = () => { if (playersEl.children.length > 2) { playersEl.lastElementChild.remove(); teams(); } };
  teamsSel.onchange = teams;
  addPlayer(); addPlayer(); addPlayer(); addPlayer();

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
    const body = {
      game: f.get("game"), players, teams: teamsOut, auto_accept: !!f.get("auto_accept"),
      options: {ace: f.get("ace"), goal: f.get("goal") ? +f.get("goal") : null, decks: +f.get("decks") || 1,
                chips_per_points: +f.get("chips_per_points") || 10, wild_scoring: !!f.get("wild_scoring")},
    };
    const r = await SK.api("POST", "/api/tables", body);
    if (r.ok) location.href = r.data.urls.keeper;
    else document.getElementById("start-error").innerHTML = `<p class="refusal">${SK.esc(r.data.error)}</p>`;
  });
})();
