// The lobby adds play, research view and delete for the games this
// browser created or forked, from the links kept in its storage.
import { savedLinks, saveLinks, forgetLinks } from "./links.js";

const created = document.getElementById("created");
if (created) saveLinks(JSON.parse(created.dataset.links));

const saved = savedLinks();
const csrf = document.querySelector("form.new-game")?.dataset.csrf;
const button = (href, text) => {
  const a = document.createElement("a");
  a.className = "button";
  a.href = href;
  a.textContent = text;
  return a;
};
for (const row of document.querySelectorAll("tr[data-id]")) {
  const l = saved[row.dataset.id];
  if (!l) continue;
  const cell = row.querySelector(".actions");
  l.seats.forEach((link, i) => link && cell.append(" ", button(link, `play seat ${i + 1}`)));
  const del = document.createElement("button");
  del.type = "button";
  del.textContent = "delete";
  del.addEventListener("click", async () => {
    if (!confirm("Delete this game for good?")) return;
    const token = new URL(l.research, location.href).searchParams.get("token");
    const res = await fetch(`/games/${l.id}/delete`, { method: "POST", headers: { "X-Gopoly-CSRF": csrf, "X-Gopoly-Token": token, Accept: "application/json" } });
    if (res.ok) {
      forgetLinks(l.id);
      row.remove();
    }
  });
  cell.append(" ", button(l.research, "research view"), " ", del);
}
