// The links of the games this browser created or forked (their seat and
// research tokens) stay in this browser's storage, never on the lobby
// page the server sends to everyone.
const key = "gopoly-links";

// savedLinks is every game's links kept here, by game.
export function savedLinks() {
  return JSON.parse(localStorage.getItem(key) || "{}");
}

// saveLinks keeps a game's links ({id, research, watch, seats}).
export function saveLinks(l) {
  const saved = savedLinks();
  saved[l.id] = l;
  localStorage.setItem(key, JSON.stringify(saved));
}

// forgetLinks drops a deleted game's links.
export function forgetLinks(id) {
  const saved = savedLinks();
  delete saved[id];
  localStorage.setItem(key, JSON.stringify(saved));
}
