// The Monopoly Deal page: it draws the state the server sends and plays
// the move a person picks from the legal moves listed there.
const root = document.getElementById("deal");
const { id, token, csrf } = root.dataset;
const $ = (s) => document.querySelector(s);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) k === "onclick" ? e.addEventListener("click", v) : e.setAttribute(k, v);
  e.append(...kids);
  return e;
};

function draw(s) {
  $("#status").textContent = s.over ? `${s.result} (after turn ${s.turn - 1}).` : `Turn ${s.turn} · ${s.status} · deck ${s.deck} cards · ${s.required_sets} complete sets win`;
  $("#sides").replaceChildren(
    ...s.players.map((p) =>
      el("article", { class: "player" }, el("h3", {}, `${p.name}: ${p.complete_sets} complete`),
        el("p", {}, `hand ${p.hand_size} · bank $${p.bank_value}M (${p.bank})`),
        el("p", {}, "properties: " + (p.properties.join(", ") || "none"))),
    ),
  );
  $("#hand").textContent = s.hand;
  $("#moves").replaceChildren(
    ...(s.moves || []).map((m, i) => el("button", { type: "button", "data-key": String(i + 1), class: i === 0 ? "primary" : "", onclick: () => move(i) }, `${i + 1}. ${m}`)),
  );
  $("#log").replaceChildren(
    ...s.log.map((l) => el("li", { class: l.who }, `turn ${l.turn} · ${l.who === "you" ? "You" : "Agent"}: ${l.text}` + (l.prob ? ` — ${l.prob}` : "") + (l.note ? ` (${l.note})` : ""))),
  );
  $("#log").scrollTop = $("#log").scrollHeight;
}

async function call(path, body) {
  const res = await fetch(`/deal/${id}${path}?token=${token}`, {
    method: body ? "POST" : "GET",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-Gopoly-CSRF": csrf },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw data;
  return data;
}

function move(i) {
  $("#moves").querySelectorAll("button").forEach((b) => (b.disabled = true));
  call("/move", { move: i }).then(draw).catch((p) => ($("#status").textContent = `Refused (${p.code}): ${p.message}`));
}

document.addEventListener("keydown", (ev) => {
  const b = document.querySelector(`#moves button[data-key="${ev.key}"]`);
  if (b && !ev.target.matches("input, select")) b.click();
});

call("/state").then(draw);
