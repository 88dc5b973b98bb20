// The Monopoly Deal page: it draws the state the server sends as cards
// (each side's property sets, bank and hand) and plays the move a person
// picks from the legal moves listed there.
const root = document.getElementById("deal");
const { id, token, csrf } = root.dataset;
const $ = (s) => document.querySelector(s);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) k === "onclick" ? e.addEventListener("click", v) : e.setAttribute(k, v);
  e.append(...kids.flat().filter((k) => k !== null && k !== undefined));
  return e;
};

// card draws one card kind as a card shape in its colour, with its count.
function card(c) {
  const kind = { cash: "Money", property: "Property", rent: "Rent", just_say_no: "Action" }[c.class] || "";
  const title = c.class === "cash" ? `$${c.value}M` : c.class === "just_say_no" ? "Just Say No!" : c.colour;
  return el("div", { class: `dcard ${c.class} ${c.colour || ""}`, title: c.name + (c.count > 1 ? ` ×${c.count}` : "") },
    el("span", { class: "band" }, kind), el("b", {}, title), c.class !== "cash" && c.value ? el("span", { class: "value" }, `worth $${c.value}M`) : el("span", { class: "value" }, ""),
    c.count > 1 ? el("span", { class: "count" }, `×${c.count}`) : null);
}

// set draws a colour's properties as a fan, with the cards still needed
// as outlines.
function set(s) {
  const slots = [];
  for (let i = 0; i < s.size; i++) slots.push(el("div", { class: `dcard property ${s.colour}${i < s.have ? "" : " missing"}` }, el("span", { class: "band" })));
  return el("div", { class: `dset${s.have >= s.size ? " complete" : ""}`, title: `${s.colour}: ${s.have} of ${s.size}` },
    el("div", { class: "fan" }, slots), el("span", { class: "note" }, `${s.colour} ${s.have}/${s.size}`));
}

function side(p, mine) {
  const back = [];
  for (let i = 0; i < p.hand_size; i++) back.push(el("div", { class: "dcard back" }));
  return el("article", { class: `dside${mine ? " mine" : ""}` },
    el("h3", {}, mine ? "Your table" : "The agent's table", el("small", {}, ` · ${p.complete_sets} complete set${p.complete_sets === 1 ? "" : "s"} · bank $${p.bank_value}M`)),
    el("div", { class: "zone" }, el("h4", {}, "Properties"), el("div", { class: "cards" }, p.sets.length ? p.sets.map(set) : el("p", { class: "note" }, "none yet"))),
    el("div", { class: "zone" }, el("h4", {}, "Bank"), el("div", { class: "cards" }, p.bank_cards.length ? p.bank_cards.map(card) : el("p", { class: "note" }, "empty"))),
    mine ? null : el("div", { class: "zone" }, el("h4", {}, `Hand (${p.hand_size})`), el("div", { class: "cards backs" }, back)));
}

function draw(s) {
  $("#status").textContent = s.over
    ? `${s.result} (after turn ${s.turn - 1}).`
    : `Turn ${s.turn} · ${s.status === "your move" ? "your move" : s.status} · ${s.deck} cards in the deck · ${s.required_sets} complete sets win`;
  const [you, agent] = s.players;
  $("#sides").replaceChildren(side(agent, false), side(you, true));
  $("#hand").replaceChildren(...(s.hand_cards.length ? s.hand_cards.map(card) : [el("p", { class: "note" }, "no cards")]));
  $("#moves").replaceChildren(
    ...(s.moves || []).map((m, i) => el("button", { type: "button", "data-key": String(i + 1), class: i === 0 ? "primary" : "", onclick: () => move(i) }, `${i + 1}. ${m}`)),
  );
  $("#log").replaceChildren(
    ...(s.log || []).map((l) => el("li", { class: l.who }, `Turn ${l.turn} · ${l.who === "you" ? "You" : "Agent"}: ${l.text}` + (l.prob ? ` — ${l.prob}` : "") + (l.note ? ` (${l.note})` : ""))),
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
  call("/move", { move: i }).then(draw).catch((p) => ($("#status").textContent = `Refused: ${p.message}`));
}

document.addEventListener("keydown", (ev) => {
  const b = document.querySelector(`#moves button[data-key="${ev.key}"]`);
  if (b && !ev.target.matches("input, select")) b.click();
});

call("/state").then(draw);
