// The links of the games this browser created (their seat and research
// tokens) stay in this browser's storage, never on the lobby page the
// server sends to everyone: the lobby adds play, resume and delete for
// those games here.
const key = "gopoly-links";
const saved = JSON.parse(localStorage.getItem(key) || "{}");

const created = document.getElementById("created");
if (created) {
  const l = JSON.parse(created.dataset.links);
  saved[l.id] = l;
  localStorage.setItem(key, JSON.stringify(saved));
}

const csrf = document.querySelector("form.new-game")?.dataset.csrf;
for (const row of document.querySelectorAll("tr[data-id]")) {
  const l = saved[row.dataset.id];
  if (!l) continue;
  const cell = row.querySelector(".actions");
  l.seats.forEach((link, i) => {
    if (!link) return;
    const a = document.createElement("a");
    a.className = "button";
    a.href = link;
    a.textContent = `play seat ${i}`;
    cell.append(" ", a);
  });
  const r = document.createElement("a");
  r.className = "button";
  r.href = l.research;
  r.textContent = "research view";
  const del = document.createElement("button");
  del.type = "button";
  del.textContent = "delete";
  del.addEventListener("click", async () => {
    if (!confirm("Delete this game for good?")) return;
    const token = new URL(l.research, location.href).searchParams.get("token");
    const res = await fetch(`/games/${l.id}/delete`, { method: "POST", headers: { "X-Gopoly-CSRF": csrf, "X-Gopoly-Token": token, Accept: "application/json" } });
    if (res.ok) {
      delete saved[l.id];
      localStorage.setItem(key, JSON.stringify(saved));
      row.remove();
    }
  });
  cell.append(" ", r, " ", del);
}
