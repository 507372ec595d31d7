/* Photograph a meld (phone or keeper's tablet): the server names the cards, the photo comes back
   with every card outlined and named (uncertain ones highlighted), any card is fixed with the
   card picker, then the cards go to the keeper as a meld, a lay-off or the hand left at the end
   (the keeper enters them directly). */
"use strict";
(() => {
  const box = SK.$("#photo-box");
  if (!box || !SK.boot) return;
  const tid = SK.boot.table_id, keeper = box.dataset.mode === "keeper";
  const maxBytes = +box.dataset.maxBytes || 0;
  const DISPLAY_SIDE = 1280;  // the photo is drawn at most this large: phones keep memory low
  box.innerHTML = `<h2>Photograph a meld</h2>
    <label class="btn primary photo-shoot"><svg class="cam" viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path fill="currentColor" d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"/></svg>&nbsp;Photograph meld<input type="file" id="ph-file" accept="image/*" capture="environment" hidden></label>
    <span class="muted" id="ph-status"></span>
    <div id="ph-error"></div>
    <div id="ph-review" hidden>
      <div class="ph-stage"><canvas id="ph-canvas" aria-label="the photo with the cards outlined"></canvas></div>
      <p class="muted" id="ph-profile"></p>
      <div id="ph-warnings"></div>
      <p class="muted">Tap a card, on the photo or below, to fix it. <span class="ph-key sure">sure</span> <span class="ph-key doubt">check it</span> <span class="ph-key low">uncertain</span> <span class="ph-key fixed">fixed</span></p>
      <div class="ph-cards" id="ph-cards"></div>
      <div class="row"><button type="button" id="ph-add">+ Add a card the photo missed</button></div>
      <div class="ph-fix" id="ph-fix" hidden>
        <h3 id="ph-fix-title"></h3>
        <div id="ph-picker"></div>
        <div class="row"><button type="button" class="primary" id="ph-fix-ok">Use this card</button>
          <button type="button" class="danger" id="ph-fix-remove">Remove the card</button>
          <button type="button" id="ph-fix-cancel">Cancel</button></div>
      </div>
      <div class="row">
        ${keeper ? `<label>Player<select id="ph-player"></select></label>` : ""}
        <label>Send as<select id="ph-kind"><option value="meld">a meld</option><option value="lay-off">a lay-off</option>${keeper ? "" : `<option value="hand">my hand at the end</option>`}</select></label>
        <label id="ph-meld-l">On meld<select id="ph-meld"></select></label>
        <label id="ph-top-l">Top card<select id="ph-top"></select></label>
      </div>
      <div class="row"><button type="button" class="primary" id="ph-send">${keeper ? "Enter" : "Send to the keeper"}</button>
        <button type="button" id="ph-discard">Discard the photo</button></div>
    </div>
    <div id="ph-result"></div>`;

  const canvas = SK.$("#ph-canvas"), ctx = canvas.getContext("2d");
  const picker = new SK.Picker(SK.$("#ph-picker"), {max: 1, placeholder: "Tap the right card"});
  let result = null, cards = [], image = null, scale = 1, editing = null, table = null;

  const label = (code) => SK.cardInfo(code).label;
  const status = (text) => { SK.$("#ph-status").textContent = text || ""; };

  async function loadTable() {
    const r = await SK.api("GET", `/api/tables/${tid}`);
    if (!r.ok) return;
    table = r.data;
    const s = table.state;
    SK.options(SK.$("#ph-meld"), (s.melds || []).map((m) => [String(m.id), `#${m.id} ${m.owner}: ${m.cards.map(label).join(" ")}`]), SK.$("#ph-meld").value);
    if (keeper) {
      const names = (s.players || []).map((p) => p.name), cur = SK.$("#ph-player").value;
      SK.options(SK.$("#ph-player"), names.map((n) => [n, n]), names.includes(cur) ? cur : (s.turn || names[0]));
    }
  }

  function showFields() {
    const kind = SK.$("#ph-kind").value;
    SK.$("#ph-meld-l").style.display = kind === "lay-off" ? "" : "none";
    SK.$("#ph-top-l").style.display = kind === "hand" ? "none" : "";
  }

  function fillTop() {
    const sel = SK.$("#ph-top"), cur = sel.value, seen = cards.find((c) => c.top);
    const codes = [...new Set(cards.map((c) => c.code))];
    const keep = codes.includes(cur) ? cur : (seen && codes.includes(seen.code) ? seen.code : "");
    SK.options(sel, [["", "(automatic)"], ...codes.map((c) => [c, label(c)])], keep);
  }

  function draw() {
    const w = Math.max(1, Math.round(result.width * scale)), h = Math.max(1, Math.round(result.height * scale));
    canvas.width = w; canvas.height = h;
    if (image) ctx.drawImage(image, 0, 0, w, h);
    else { ctx.fillStyle = "#223"; ctx.fillRect(0, 0, w, h); }
    const line = Math.max(2, w / 250), font = Math.max(14, Math.round(w / 38));
    ctx.font = `800 ${font}px system-ui, sans-serif`;
    cards.forEach((c, i) => {
      if (!c.corners) return;
      const pts = c.corners.map(([x, y]) => [x * scale, y * scale]);
      const colour = c.fixed ? "#58a6ff" : c.check ? "#ff3b30" : c.doubt ? "#ffb703" : "#2ee66b";
      ctx.lineWidth = c.check && !c.fixed ? line * 1.8 : line;
      ctx.strokeStyle = colour;
      ctx.setLineDash(c.check && !c.fixed ? [line * 4, line * 2] : []);
      ctx.beginPath(); pts.forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.closePath(); ctx.stroke();
      ctx.setLineDash([]);
      const text = `${i + 1} ${label(c.code)}${c.top ? " \u2605" : ""}${c.check && !c.fixed ? " ?" : ""}`;
      const tw = ctx.measureText(text).width + font * 0.6;
      const x = Math.min(Math.max(0, pts[0][0]), w - tw), y = Math.min(Math.max(0, pts[0][1] - font * 1.5), h - font * 1.4);
      ctx.fillStyle = colour; ctx.fillRect(x, y, tw, font * 1.4);
      ctx.fillStyle = "#111"; ctx.fillText(text, x + font * 0.3, y + font * 1.08);
    });
  }

  function render() {
    draw();
    SK.$("#ph-cards").innerHTML = cards.map((c, i) => {
      const inf = SK.cardInfo(c.code), pct = c.confidence == null ? "fixed" : `${Math.round(c.confidence * 100)}%`;
      return `<button type="button" class="card ${inf.cls}${c.check && !c.fixed ? " low" : c.doubt && !c.fixed ? " doubt" : ""}${c.fixed ? " fixed" : ""}" data-i="${i}" data-code="${SK.esc(c.code)}"${c.check && !c.fixed ? " data-check" : ""} title="tap to fix">
        <small>${i + 1}</small> ${SK.cardFaceHTML(c.code)} <small>${c.fixed ? "fixed" : pct}${c.top ? " top" : ""}</small></button>`;
    }).join("") || `<span class="muted">no card found: tap + to add them, or take the photo again</span>`;
    fillTop();
  }

  function openFix(i) {
    editing = i;
    SK.$("#ph-fix").hidden = false;
    SK.$("#ph-fix-remove").hidden = i === null;
    SK.$("#ph-fix-title").textContent = i === null ? "Add a card" : `Card ${i + 1}: read as ${label(cards[i].code)}${cards[i].alternatives && cards[i].alternatives.length ? ` (or ${label(cards[i].alternatives[0])}?)` : ""}`;
    picker.clear();
    SK.$("#ph-fix").scrollIntoView({block: "nearest"});
  }
  function closeFix() { editing = null; SK.$("#ph-fix").hidden = true; picker.clear(); }

  let sendId = SK.newId();  // one per photographed play: a double tap or a retry is stored once
  function reset() {
    result = null; cards = []; image = null; closeFix(); sendId = SK.newId();
    SK.$("#ph-review").hidden = true; SK.$("#ph-file").value = "";
  }

  async function loadImage(file) {
    const url = URL.createObjectURL(file);
    try {
      const img = new Image(); img.src = url; await img.decode();
      return img;
    } catch (e) { return null; } finally { setTimeout(() => URL.revokeObjectURL(url), 1000); }
  }

  SK.$("#ph-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    reset();
    SK.$("#ph-error").innerHTML = ""; SK.$("#ph-result").innerHTML = "";
    const tooLarge = SK.photoTooLarge(file, maxBytes);
    if (tooLarge) {  // refused before uploading it over the Wi-Fi
      SK.$("#ph-error").innerHTML = `<div class="refusal" data-photo-error>${tooLarge}</div>`;
      return;
    }
    status("Reading the cards\u2026");
    const {ok, data} = await SK.recognizePhoto(tid, file);
    status("");
    if (!ok) { SK.$("#ph-error").innerHTML = `<div class="refusal" data-photo-error>${SK.esc(data.error)}</div>`; SK.$("#ph-file").value = ""; return; }
    result = data;
    cards = data.cards.map((c) => Object.assign({}, c));
    image = await loadImage(file);
    scale = Math.min(1, DISPLAY_SIDE / Math.max(data.width, data.height, 1));
    if (image && Math.abs(image.naturalWidth / image.naturalHeight - data.width / data.height) > 0.02) image = null;  // not drawn upright here
    SK.$("#ph-profile").textContent = `${cards.length} card${cards.length === 1 ? "" : "s"} read with the ${data.profile.source === "table" ? `table's deck (${data.profile.cards} cards learned)` : "built-in reference deck"} in ${(data.ms / 1000).toFixed(1)} s.`;
    SK.$("#ph-warnings").innerHTML = (data.warnings || []).map((w) => `<div class="ph-warning">${SK.esc(w)}</div>`).join("");
    SK.$("#ph-review").hidden = false;
    await loadTable();
    render();
    SK.$("#ph-review").scrollIntoView({block: "start"});
  });

  SK.$("#ph-cards").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-i]"); if (b) openFix(+b.dataset.i);
  });
  canvas.addEventListener("click", (ev) => {
    const r = canvas.getBoundingClientRect();
    const x = (ev.clientX - r.left) * canvas.width / r.width / scale, y = (ev.clientY - r.top) * canvas.height / r.height / scale;
    const inside = (pts) => { let c = false; for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) { const [xi, yi] = pts[i], [xj, yj] = pts[j]; if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) c = !c; } return c; };
    let best = null;
    cards.forEach((c, i) => {
      if (!c.corners || !inside(c.corners)) return;
      const d = Math.hypot(c.corners[0][0] - x, c.corners[0][1] - y);  // the nearest index corner wins in a fan
      if (!best || d < best.d) best = {i, d};
    });
    if (best) openFix(best.i);
  });
  SK.$("#ph-add").addEventListener("click", () => openFix(null));
  SK.$("#ph-fix-cancel").addEventListener("click", closeFix);
  SK.$("#ph-fix-remove").addEventListener("click", () => { if (editing !== null) cards.splice(editing, 1); closeFix(); render(); });
  SK.$("#ph-fix-ok").addEventListener("click", () => {
    const code = picker.cards[0];
    if (!code) { SK.toast("tap the right card first (a rank, then its suit)", true); return; }
    if (editing === null) cards.push({code, confidence: null, top: false, corners: null, fixed: true, check: false});
    else Object.assign(cards[editing], {code, fixed: true, check: false, doubt: false});
    closeFix(); render();
  });
  SK.$("#ph-kind").addEventListener("change", showFields); showFields();
  SK.$("#ph-discard").addEventListener("click", () => { reset(); SK.$("#ph-result").innerHTML = ""; });

  SK.$("#ph-send").addEventListener("click", async () => {
    const kind = SK.$("#ph-kind").value, codes = cards.map((c) => c.code), top = SK.$("#ph-top").value || null;
    if (!codes.length) { SK.toast("no cards to send", true); return; }
    const unchecked = cards.filter((c) => c.check && !c.fixed).length;
    if (unchecked && !window.confirm(`${unchecked} card${unchecked > 1 ? "s are" : " is"} uncertain (marked ?). Send anyway?`)) return;
    const meld = +SK.$("#ph-meld").value;
    let event = null;
    if (kind === "meld") event = {type: "meld", cards: codes, top};
    if (kind === "lay-off") event = {type: "lay-off", meld, cards: codes, top};
    let r;
    if (keeper) {
      if (!table) await loadTable();
      event.player = SK.$("#ph-player").value;
      r = await SK.busy(SK.$("#ph-send"), () => SK.api("POST", `/api/tables/${tid}/events`, {base_seq: table.seq, event, action_id: sendId}));
      if (!r) return;
      if (r.status === 409) { await loadTable(); SK.$("#ph-result").innerHTML = SK.staleHTML(r.data); return; }
    } else {
      r = await SK.busy(SK.$("#ph-send"), () => SK.api("POST", `/api/tables/${tid}/proposals`, {...(event ? {kind: "event", event} : {kind: "hand", cards: codes}), action_id: sendId}));
      if (!r) return;
    }
    if (r.ok && r.data.repeat) { SK.$("#ph-result").innerHTML = r.data.event ? SK.repeatHTML(r.data) : `<div class="okbox" data-repeat>Already sent: nothing new was sent.</div>`; return; }
    if (r.ok) {
      const accepted = keeper || r.data.status === "accepted";
      SK.$("#ph-result").innerHTML = `<div class="okbox" data-photo-sent>${accepted ? "Entered and scored" : "Sent: the keeper will accept it"}: ${SK.cardsHTML(codes)}</div>`;
      reset();
    } else SK.$("#ph-result").innerHTML = `<div class="refusal" data-photo-refused>Refused: ${SK.esc(r.data.error)}</div>`;
  });
})();
