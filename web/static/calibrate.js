/* Deck calibration (keeper): photograph the deck card by card with a progress bar, or send a
   folder, several photos or a zip of photos named by card code; the table keeps the profile. */
"use strict";
(() => {
  const tid = SK.boot.table_id, allCodes = SK.boot.deck_codes;
  let deck = SK.boot.deck, pos = 0;

  const codes = () => allCodes[deck.deck] || [];
  const learned = () => new Set(deck.learned);
  const name = (code) => SK.cardInfo(code).label;

  function firstMissing(from) {
    const cs = codes(), have = learned();
    for (let k = 0; k < cs.length; k++) { const i = (from + k) % cs.length; if (!have.has(cs[i])) return i; }
    return from % Math.max(1, cs.length);
  }

  function render() {
    const cs = codes(), have = learned(), n = deck.learned.length;
    SK.$("#cal-bar").style.width = `${cs.length ? (100 * n / cs.length) : 0}%`;
    SK.$("#cal-bar").parentElement.setAttribute("aria-valuenow", String(cs.length ? Math.round(100 * n / cs.length) : 0));
    SK.$("#cal-count").textContent = `${n} of ${cs.length} cards learned`;
    SK.$("#cal-source").textContent = deck.source === "table" ? `Photos at this table are read with this deck (${n} cards).` : "No card learned yet: photos are read with the built-in reference Toss deck.";
    SK.$("#cal-deck-l").hidden = n > 0;
    SK.$("#cal-deck").value = deck.deck;
    SK.$("#cal-download").hidden = n === 0;
    const code = cs[pos];
    SK.$("#cal-pos").textContent = `Card ${pos + 1} of ${cs.length}:`;
    SK.$("#cal-code").innerHTML = code ? SK.cardHTML(code, have.has(code) ? "learned" : "") : "";
    SK.$("#cal-name").textContent = code ? `${code}${have.has(code) ? " \u2714 learned (photograph again to replace)" : ""}` : "";
    SK.$("#cal-forget-card").hidden = !have.has(code);
    SK.$("#cal-grid").innerHTML = cs.map((c, i) => `<button type="button" class="card ${SK.cardInfo(c).cls}${have.has(c) ? " learned" : " missing"}${i === pos ? " here" : ""}" data-pos="${i}" data-code="${SK.esc(c)}" title="${SK.esc(c)}">${SK.esc(name(c))}</button>`).join("");
  }

  const send = (url, field, file) => SK.upload(url, field, file, "the file is too large");

  // A card learned with an index unlike the deck's other cards' (perhaps a court card's picture).
  const doubt = (text) => text ? `<div class="ph-warning" data-cal-doubt>${SK.esc(text)}</div>` : "";

  const deckParam = () => `?deck=${encodeURIComponent(SK.$("#cal-deck").value)}`;

  SK.$("#cal-photo").addEventListener("change", async (ev) => {
    const file = ev.target.files[0]; ev.target.value = "";
    if (!file) return;
    const code = codes()[pos];
    SK.$("#cal-result").innerHTML = `<p class="muted">Learning ${SK.esc(code)}\u2026</p>`;
    const r = await send(`/api/tables/${tid}/deck/cards/${encodeURIComponent(code)}${deckParam()}`, "photo", file);
    if (r.ok) {
      deck = r.data.deck;
      SK.$("#cal-result").innerHTML = `<div class="okbox" data-learned="${SK.esc(code)}">\u2714 ${SK.esc(code)} learned (${r.data.learned} of ${r.data.total}).</div>` + doubt(r.data.warning);
      pos = firstMissing(pos + 1);
    } else SK.$("#cal-result").innerHTML = `<div class="refusal" data-cal-error>${SK.esc(code)} not learned: ${SK.esc(r.data.error)}</div>`;
    render();
  });

  async function many(files) {
    const photos = Array.from(files).filter((f) => /\.(jpe?g|png|webp|bmp|tiff?)$/i.test(f.name));
    const box = SK.$("#cal-bulk"), failed = [], doubts = [];
    if (!photos.length) { box.innerHTML = `<div class="refusal">No photos there (.jpg, .png ...): name each photo by its card code, like Qsh.jpg.</div>`; return; }
    for (let i = 0; i < photos.length; i++) {
      const f = photos[i], code = f.name.replace(/\.[^.]*$/, "");
      box.innerHTML = `<div class="cal-progress"><div style="width:${100 * i / photos.length}%"></div></div><p class="muted">${i + 1} of ${photos.length}: ${SK.esc(f.name)}</p>`;
      const r = await send(`/api/tables/${tid}/deck/cards/${encodeURIComponent(code)}${deckParam()}`, "photo", f);
      if (r.ok) { deck = r.data.deck; if (r.data.warning) doubts.push(r.data.warning); } else failed.push([f.name, r.data.error]);
      render();
    }
    pos = firstMissing(0); render();
    box.innerHTML = `<div class="okbox">${photos.length - failed.length} of ${photos.length} photos learned.</div>` + failed.map(([f, e]) => `<div class="refusal">${SK.esc(f)}: ${SK.esc(e)}</div>`).join("") + doubts.map(doubt).join("");
  }
  SK.$("#cal-folder").addEventListener("change", (ev) => { many(ev.target.files); ev.target.value = ""; });
  SK.$("#cal-files").addEventListener("change", (ev) => { many(ev.target.files); ev.target.value = ""; });
  SK.$("#cal-zip").addEventListener("change", async (ev) => {
    const file = ev.target.files[0]; ev.target.value = "";
    if (!file) return;
    const box = SK.$("#cal-bulk");
    box.innerHTML = `<p class="muted">Learning the photos in ${SK.esc(file.name)} (about a second per card)\u2026</p>`;
    const r = await send(`/api/tables/${tid}/deck/import${deckParam()}`, "archive", file);
    if (!r.ok) { box.innerHTML = `<div class="refusal">${SK.esc(r.data.error)}</div>`; return; }
    deck = r.data.deck; pos = firstMissing(0); render();
    const failed = Object.entries(r.data.failed);
    box.innerHTML = `<div class="okbox">${r.data.learned.length} photos learned.</div>` + failed.map(([f, e]) => `<div class="refusal">${SK.esc(f)}: ${SK.esc(e)}</div>`).join("") + Object.values(r.data.doubts || {}).map(doubt).join("");
  });

  SK.$("#cal-prev").addEventListener("click", () => { pos = (pos - 1 + codes().length) % codes().length; render(); });
  SK.$("#cal-next").addEventListener("click", () => { pos = (pos + 1) % codes().length; render(); });
  SK.$("#cal-grid").addEventListener("click", (ev) => { const b = ev.target.closest("[data-pos]"); if (b) { pos = +b.dataset.pos; render(); SK.$("#cal-step").scrollIntoView({block: "nearest"}); } });
  SK.$("#cal-deck").addEventListener("change", (ev) => { deck = Object.assign({}, deck, {deck: ev.target.value}); pos = 0; render(); });
  SK.$("#cal-forget-card").addEventListener("click", async () => {
    const r = await SK.api("DELETE", `/api/tables/${tid}/deck/cards/${encodeURIComponent(codes()[pos])}`);
    if (r.ok) { deck = r.data.deck; render(); } else SK.toast(r.data.error, true);
  });
  SK.$("#cal-forget").addEventListener("click", async () => {
    if (!window.confirm("Forget every learned card of this table's deck?")) return;
    const r = await SK.api("DELETE", `/api/tables/${tid}/deck`);
    if (r.ok) { deck = r.data.deck; pos = 0; render(); SK.toast(`${r.data.forgotten} cards forgotten`); } else SK.toast(r.data.error, true);
  });

  pos = firstMissing(0);
  render();
})();
