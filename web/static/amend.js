/* Amending a past event: the keeper's form on the history page (any event in effect, any
   game: its fields edited one by one, a reason, a preview of the score change per player and
   of the later events that no longer hold), and the notice on the players' phones with the
   hands to confirm again. */
"use strict";

SK.PLAYER_KEYS = ["player", "dealer", "went_out", "owner", "caller", "winner", "shooter"];
SK.CARD_MAPS = ["hands", "taken", "cards_by_player", "melded"];

SK.Amend = class {
  constructor(t, reload) {
    this.t = t; this.reload = reload; this.events = []; this.target = null; this.actionId = null;
    this.keeper = t.role && t.role.kind === "keeper";
    this.box = SK.$("#amend-box");
    if (!this.keeper || !this.box) return;
    document.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-amend]"); if (b) this.open(+b.dataset.amend);
    });
    this.box.addEventListener("click", (ev) => {
      if (ev.target.closest("#amend-preview")) this.preview();
      else if (ev.target.closest("#amend-commit")) this.commit(ev.target.closest("#amend-commit"));
      else if (ev.target.closest("#amend-cancel")) this.close();
    });
    this.box.addEventListener("input", () => { this.actionId = SK.newId(); });
  }
  /* the Amend button of a log row: events in effect only (an amended one again by its #) */
  button(row, note) {
    const type = row.event.type;
    if (!this.keeper || type === "undo" || type === "amend" || note.undone_by || note.removed_by) return "";
    return ` <button type="button" class="small" data-amend="${row.seq}">Amend</button>`;
  }
  /* the Amend button of a finished hand: the event that recorded it (End hand, or a rules-pack
     game's hand entry), found on the timeline of the events in effect */
  handButton(handNo, timeline) {
    if (!this.keeper) return "";
    const seq = this.handSeq(handNo, timeline);
    return seq ? ` <button type="button" class="small" data-amend="${seq}" data-amend-hand="${handNo}">Amend</button>` : "";
  }
  handSeq(handNo, timeline) {
    const point = (timeline || []).find((p) => p.seq && p.hand_no === handNo && ["end-hand", "hand"].includes((this.current(p.seq) || {}).type));
    return point ? point.seq : null;
  }
  /* the history page opened from the keeper's hand list (#amend-hand-N): that hand's form, once */
  openLinked(timeline) {
    const m = /^#amend-hand-(\d+)$/.exec(location.hash);
    if (!this.keeper || !m) return;
    window.history.replaceState(null, "", location.pathname + location.search);
    const seq = this.handSeq(+m[1], timeline);
    if (seq) this.open(seq);
    else SK.toast(`Hand ${m[1]} has no entry in effect to amend`, true);
  }
  players() { return (this.t.setup && this.t.setup.players || []).map((p) => (typeof p === "string" ? p : p.name)); }
  /* the event as it now stands: its latest amendment in effect, else as logged */
  current(seq) {
    let event = (this.events.find((x) => x.seq === seq) || {}).event;
    this.events.forEach((x) => {
      if (x.event.type === "amend" && x.event.target === seq && !(this.notes[String(x.seq)] || {}).undone_by) event = x.event.event;
    });
    return event;
  }
  open(seq) {
    const event = this.current(seq);
    if (!event) return;
    this.target = seq; this.actionId = SK.newId();
    const shown = event.type === "toss" && !("captured" in event) ? {...event, captured: null} : event;
    const fields = Object.entries(shown).filter(([k]) => !["type", "by", "action_id"].includes(k))
      .map(([k, v]) => this.field([k], k, v)).join("");
    this.box.hidden = false;
    this.box.innerHTML = `<h2>Amend #${seq}</h2><p class="muted">Now: ${SK.describe(event)}</p>
      <div class="amend-fields" data-type="${SK.esc(event.type)}">${fields}</div>
      <label class="amend-reason">Why (required)<input id="amend-reason" autocomplete="off" placeholder="what was entered wrongly"></label>
      <div class="row"><button type="button" id="amend-preview">Preview</button><button type="button" class="primary" id="amend-commit">Amend #${seq}</button><button type="button" id="amend-cancel">Cancel</button></div>
      <div id="amend-result"></div>`;
    this.box.scrollIntoView({block: "nearest"});
    const first = SK.$("input, select", this.box); if (first) first.focus();
  }
  close() { this.box.hidden = true; this.box.innerHTML = ""; this.target = null; }
  field(path, key, value) {
    const at = SK.esc(JSON.stringify(path)), label = SK.esc(path.join(" \u203a ").replace(/_/g, " "));
    const players = this.players();
    if (SK.PLAYER_KEYS.includes(key) && (value === null || typeof value === "string")) {
      const opts = [["", "(nobody)"], ...players.map((p) => [p, p])].map(([v, l]) => `<option value="${SK.esc(v)}"${v === (value || "") ? " selected" : ""}>${SK.esc(l)}</option>`).join("");
      return `<label>${label}<select data-path="${at}" data-kind="player">${opts}</select></label>`;
    }
    if (Array.isArray(value) && value.every((x) => typeof x === "string")) {
      return `<label>${label}<input data-path="${at}" data-kind="cards" value="${SK.esc(value.join(" "))}" autocomplete="off" autocapitalize="none"></label>`;
    }
    if (typeof value === "number") return `<label>${label}<input type="number" data-path="${at}" data-kind="number" value="${value}"></label>`;
    if (typeof value === "boolean") return `<label><input type="checkbox" data-path="${at}" data-kind="bool"${value ? " checked" : ""}> ${label}</label>`;
    if (value === null || typeof value === "string") return `<label>${label}<input data-path="${at}" data-kind="text" value="${SK.esc(value || "")}" autocomplete="off" autocapitalize="none"></label>`;
    if (typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value), byPlayer = SK.CARD_MAPS.includes(key) || (keys.length && keys.every((k) => players.includes(k)));
      const rows = keys.map((k) => this.field([...path, k], k, value[k]));
      if (byPlayer) players.filter((p) => !keys.includes(p)).forEach((p) => rows.push(this.field([...path, p], p, []).replace("data-kind=\"cards\"", "data-kind=\"cards\" data-added")));
      return `<fieldset><legend>${label}</legend>${rows.join("")}</fieldset>`;
    }
    return `<label>${label}<textarea data-path="${at}" data-kind="json">${SK.esc(JSON.stringify(value))}</textarea></label>`;
  }
  /* the corrected event read from the form */
  edited() {
    const event = JSON.parse(JSON.stringify(this.current(this.target)));
    delete event.by; delete event.action_id;
    SK.$$("[data-path]", this.box).forEach((el) => {
      const path = JSON.parse(el.dataset.path), kind = el.dataset.kind;
      let value;
      if (kind === "player") value = el.value || null;
      else if (kind === "cards") value = SK.cardTokens(el.value);
      else if (kind === "number") value = el.value === "" ? null : Number(el.value);
      else if (kind === "bool") value = el.checked;
      else if (kind === "json") { try { value = JSON.parse(el.value); } catch (e) { value = el.value; } }
      else value = el.value.trim() === "" ? null : el.value.trim();
      if (el.hasAttribute("data-added") && !value.length) return;
      let node = event;
      path.slice(0, -1).forEach((k) => { if (node[k] === null || typeof node[k] !== "object") node[k] = {}; node = node[k]; });
      node[path[path.length - 1]] = value;
    });
    return event;
  }
  body(extra) {
    return {target: this.target, event: this.edited(), reason: SK.$("#amend-reason").value.trim(), ...extra};
  }
  previewHTML(p) {
    const sign = (n) => `${n > 0 ? "+" : ""}${n}`;
    const rows = Object.keys(p.after).map((o) => `<tr data-change="${SK.esc(o)}"><td>${SK.esc(o)}</td><td class="num">${p.before[o]}</td><td class="num">${p.after[o]}</td><td class="num ${SK.tone(p.change[o])}">${sign(p.change[o])}</td></tr>`).join("");
    const hands = p.hands.length ? `<p data-rescored>Hand${p.hands.length > 1 ? "s" : ""} ${p.hands.join(", ")} rescored: the players confirm ${p.hands.length > 1 ? "them" : "it"} again.</p>` : "";
    const broken = p.broken.length ? `<div class="refusal" data-broken>These later events no longer hold:<ul>${p.broken.map((b) => `<li data-broken-seq="${b.seq}">#${b.seq} ${SK.esc(b.type)}: ${SK.esc(b.reason)}</li>`).join("")}</ul>
      <label><input type="checkbox" id="amend-remove" data-seqs="${p.broken.map((b) => b.seq).join(",")}"> Remove ${p.broken.length > 1 ? "these events" : "this event"} with the amendment</label></div>` : "";
    return `<table class="grid" data-preview><tr><th>Board</th><th class="num">Now</th><th class="num">Amended</th><th class="num">Change</th></tr>${rows}</table>${hands}${broken}`;
  }
  async preview() {
    const r = await SK.api("POST", `/api/tables/${this.t.id}/amend`, this.body({preview: true}));
    const out = SK.$("#amend-result");
    if (!r.ok) { out.innerHTML = `<div class="refusal" data-amend-refusal>${SK.esc(r.data.error)}</div>`; return null; }
    out.innerHTML = this.previewHTML(r.data.preview);
    return r.data.preview;
  }
  async commit(button) {
    const remove = SK.$("#amend-remove");
    const seqs = remove && remove.checked ? remove.dataset.seqs.split(",").map(Number) : [];
    const r = await SK.busy(button, () => SK.api("POST", `/api/tables/${this.t.id}/amend`,
      this.body({remove: seqs, base_seq: this.t.seq, action_id: this.actionId})));
    if (!r) return;
    const out = SK.$("#amend-result");
    if (r.ok) {
      this.t.adopt(r.data.seq, r.data.state);
      SK.toast(r.data.repeat ? `Already stored as update ${r.data.seq}` : `#${this.target} amended (update ${r.data.seq})`);
      this.close(); this.reload(); return;
    }
    if (r.status === 409) { out.innerHTML = SK.staleHTML(r.data); return; }
    const refusal = `<div class="refusal" data-amend-refusal>Not stored: ${SK.esc(r.data.error)}</div>`;
    out.innerHTML = refusal;
    if (r.status === 422) {
      const p = await this.preview();
      if (p && p.broken.length) SK.$("#amend-result").insertAdjacentHTML("afterbegin", refusal);
      else out.innerHTML = refusal;
    }
  }
};

/* a player's notice of the amendments in effect: what was amended, why, and the rescored
   hands to confirm again */
SK.amendNotice = (t) => {
  const box = SK.$("#amend-notice"); if (!box) return;
  const me = t.role && t.role.player, confirmations = (t.meta && t.meta.confirmations) || {};
  const notices = ((t.meta && t.meta.amendments) || []).filter((a) => (a.hands || []).some((h) => !(confirmations[String(h)] || []).includes(me)));
  box.hidden = !(me && notices.length);
  box.innerHTML = notices.slice(-3).map((a) => `<div class="refusal" data-amend-notice="${a.seq}">The keeper amended #${a.target}: ${SK.esc(a.reason || "")}.
    ${a.hands.filter((h) => !(confirmations[String(h)] || []).includes(me)).map((h) => `<button type="button" class="primary" data-reconfirm="${h}">Hand ${h} rescored: confirm it again</button>`).join(" ")}</div>`).join("");
};
SK.onReconfirm = (t) => document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("[data-reconfirm]"); if (!b) return;
  const r = await SK.busy(b, () => SK.api("POST", `/api/tables/${t.id}/confirm`, {hand_no: +b.dataset.reconfirm}));
  if (r && !r.ok) SK.toast(r.data.error, true);
});
