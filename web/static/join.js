/* Join page (phone): tap your seat; a seat another phone holds waits for the keeper's approval. */
"use strict";
(() => {
  const box = document.getElementById("seats"), TABLE = encodeURIComponent(box.dataset.table), JOIN = box.dataset.joinToken;
  const say = (html) => { document.getElementById("join-error").innerHTML = html; };
  let waiting = null;
  /* a taken seat: wait for the keeper's answer, then take the seat (or say why not) */
  async function wait(request) {
    const r = await SK.api("POST", `/api/tables/${TABLE}/seat-requests/${request.request}/collect`, {secret: request.secret});
    if (waiting !== request) return;
    if (r.status === 200) { location.href = r.data.url; return; }
    if (r.status === 202 || r.status === 0) { setTimeout(() => wait(request), 1500); return; }
    waiting = null; say(`<p class="refusal" data-seat-refused>${SK.esc(r.data.error)}</p>`);
  }
  box.addEventListener("click", async (ev) => {
    const b = ev.target.closest("button[data-seat]"); if (!b) return;
    const r = await SK.busy(b, () => SK.api("POST", `/api/tables/${TABLE}/join`, {join_token: JOIN, player: b.dataset.seat}));
    if (!r) return;
    if (r.status === 202) {
      waiting = r.data;
      say(`<p class="okbox" data-seat-waiting>${SK.esc(r.data.message)}. Waiting for the keeper\u2026</p>`);
      wait(r.data);
    } else if (r.ok) location.href = r.data.url;
    else say(`<p class="refusal">${SK.esc(r.data.error)}</p>`);
  });
})();
