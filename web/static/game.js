// The game page: it keeps the board and the panels live from the server's
// event stream, and builds a person's answers from the legal options the
// server sends. It holds no rule: what may be done is what the options
// list, and the server checks every answer.

const root = document.getElementById("game");
const id = root.dataset.id;
const token = root.dataset.token;
const csrf = root.dataset.csrf;
const seat = Number(root.dataset.seat);
const research = root.dataset.research === "true";
const control = root.dataset.control === "true";
const $ = (sel) => document.querySelector(sel);

let state = JSON.parse($("#initial").textContent);
const events = []; // every event received, by sequence number
let scrubbing = false; // the board shows a past position
const odds = []; // {entry, win[]} by turn

function q(path) {
  return `/games/${id}${path}${token ? (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : ""}`;
}

async function post(path, body) {
  const res = await fetch(`/games/${id}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Gopoly-CSRF": csrf, "X-Gopoly-Token": token, Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({ code: "bad_response", message: res.statusText }));
  if (!res.ok) throw data;
  return data;
}

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "on") for (const [ev, f] of Object.entries(v)) e.addEventListener(ev, f);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

const money = (n) => (n < 0 ? "-$" : "$") + Math.abs(n).toLocaleString("en-US");
const names = () => state.view.players.map((p) => p.name);

// ---- the board and the panels ------------------------------------------

let refreshing = null;
function refresh() {
  if (refreshing) return;
  refreshing = setTimeout(async () => {
    refreshing = null;
    try {
      const res = await fetch(q("/state"), { headers: { Accept: "application/json" } });
      if (!res.ok) return;
      state = await res.json();
      if (!scrubbing) await drawBoard();
      drawPlayers();
      drawDecision();
      drawPace();
    } catch (e) {
      /* the stream reconnects; the next event refreshes */
    }
  }, 120);
}

async function drawBoard(at) {
  const res = await fetch(q("/board.svg" + (at !== undefined ? `?at=${at}` : "")));
  if (res.ok) $("#board").innerHTML = await res.text();
  markClickable();
}

function drawPlayers() {
  const box = $("#players");
  box.replaceChildren();
  const board = state.view.board;
  for (const p of state.view.players) {
    const groups = {};
    for (const sq of p.properties || []) {
      const s = board[sq];
      const g = s.group || s.kind;
      (groups[g] = groups[g] || []).push(s.name + (s.hotel ? " (hotel)" : s.houses ? ` (${s.houses}h)` : "") + (s.mortgaged ? " [M]" : ""));
    }
    // Taking a seat forks the game, which shows its past: the research view's.
    const take =
      research && !state.view.over && !p.bankrupt
        ? el("button", { type: "button", class: "small", on: { click: () => forkAt(undefined, p.seat) } }, "take this seat")
        : null;
    box.append(
      el(
        "article",
        { class: `player p${p.seat}${p.bankrupt ? " bankrupt" : ""}${p.seat === state.view.current ? " current" : ""}` },
        el("h3", {}, el("span", { class: `dot p${p.seat}`, "aria-hidden": "true" }, String(p.seat)), " ", p.name, p.seat === seat ? " (you)" : "", take),
        el(
          "p",
          {},
          `${money(p.cash)} cash · net worth ${money(p.net_worth)}`,
          p.in_jail ? " · in jail" : "",
          p.jail_cards ? ` · ${p.jail_cards} jail card${p.jail_cards > 1 ? "s" : ""}` : "",
          p.bankrupt ? " · bankrupt" : "",
        ),
        el("ul", { class: "holdings" }, Object.entries(groups).map(([g, l]) => el("li", {}, el("b", {}, g + ": "), l.join(", ")))),
      ),
    );
  }
}

// ---- the feeds -----------------------------------------------------------

function addFeed(list, text, cls, seq) {
  const ol = $(list);
  if (!ol) return;
  ol.append(el("li", { class: cls || "", "data-seq": seq }, text));
  while (ol.children.length > 300) ol.firstChild.remove();
  ol.scrollTop = ol.scrollHeight;
}

function onEvent(e) {
  const ev = e.event;
  events[ev.seq] = e;
  const who = ev.player >= 0 ? state.view.players[ev.player]?.name : "";
  switch (ev.kind) {
    case "speech":
      if (ev.speech) addFeed("#talk", `${who}: “${ev.speech}”`, `p${ev.player}`);
      if (ev.thought) addFeed("#thoughts", `${who}: ${ev.thought}`, `p${ev.player}`);
      return;
    case "trade_proposed":
    case "trade_accepted":
    case "trade_rejected":
      addFeed("#trades", e.text, `p${ev.player}`);
      addFeed("#talk", e.text, "deal");
      break;
    case "turn_start":
      askOdds();
      break;
  }
  addFeed("#feed", e.text, ev.kind, ev.seq);
  const scrub = $("#scrub");
  scrub.max = ev.seq;
  if (!scrubbing) scrub.value = ev.seq;
  refresh();
}

let stream = null;
function connect() {
  // EventSource sends Last-Event-ID on its own reconnections, so a dropped
  // stream resumes where it stopped.
  stream = new EventSource(q("/events"));
  stream.addEventListener("game", (m) => onEvent(JSON.parse(m.data)));
}

// ---- a person's decision -------------------------------------------------

function answer(action, extra = {}) {
  // One answer at a time: the decision is drawn anew once it is taken.
  $("#decision").querySelectorAll("button").forEach((b) => (b.disabled = true));
  const body = { action, ...extra };
  const said = $("#say")?.value?.trim();
  if (said) body.speech = said;
  post(`/answer?at=${state.entries}`, body)
    .then(() => {
      const say = $("#say");
      if (say) say.value = "";
      refresh();
    })
    .catch((p) => {
      $("#decision").querySelectorAll("button").forEach((b) => (b.disabled = false));
      showRefusal(p);
    });
}

function showRefusal(p) {
  const box = $("#refusal") || $("#decision").appendChild(el("p", { id: "refusal", class: "refusal", role: "alert" }));
  box.textContent = `Refused (${p.code}): ${p.message}. Nothing changed.`;
}

function describe(a) {
  const o = state.options;
  const i = o.actions.indexOf(a);
  return (o.notation && o.notation[i]) || a.kind;
}

function drawDecision() {
  const box = $("#decision");
  box.replaceChildren();
  const d = state.decision;
  if (state.view.over) {
    const w = state.view.winner;
    box.append(el("h2", {}, w >= 0 ? `${names()[w]} wins` : "Game over"));
    return;
  }
  if (seat < 0) {
    box.append(el("h2", {}, "Watching"), el("p", {}, d.player >= 0 ? `${names()[d.player]} decides: ${d.kind.replace("_", " ")}` : ""));
    return;
  }
  if (!state.your_turn || !state.options) {
    box.append(el("h2", {}, "Your seat"), el("p", {}, d.player >= 0 ? `Waiting for ${names()[d.player]}…` : ""));
    return;
  }
  const o = state.options;
  box.append(el("h2", {}, "Your move"), el("p", { class: "question" }, state.decision_text || questionOf(d)));
  const buttons = el("div", { class: "choices" });
  o.actions.forEach((a, i) => {
    // Bankruptcy cannot be taken back: it asks first.
    const go = () => (a.kind !== "declare_bankruptcy" || confirm("Declare bankruptcy? You leave the game.")) && answer(a);
    buttons.append(el("button", { type: "button", class: i === 0 ? "primary" : "", "data-key": i + 1, on: { click: go } }, `${i + 1}. ${describe(a)}`));
  });
  box.append(buttons);
  if (o.bid) {
    const input = el("input", { type: "number", id: "bid", min: o.bid.min, max: o.bid.max, value: o.bid.min, "aria-label": "Bid" });
    box.append(
      el("form", { class: "inline", on: { submit: (ev) => (ev.preventDefault(), answer({ kind: "bid", amount: Number(input.value) })) } },
        el("label", { for: "bid" }, `Bid ($${o.bid.min}–$${o.bid.max})`), input, el("button", { type: "submit" }, "Bid")),
    );
  }
  if (o.accept) {
    const input = el("input", { type: "number", id: "limit", min: o.accept.min, max: o.accept.max, value: 0, "aria-label": "Limit" });
    box.append(
      el("form", { class: "inline", on: { submit: (ev) => (ev.preventDefault(), answer({ kind: "accept_trade", limit: Number(input.value) })) } },
        el("label", { for: "limit" }, o.accept.meaning), input, el("button", { type: "submit" }, "Accept with this limit")),
    );
  }
  if (o.trade && (o.trade.kind === "counter_trade" || o.trade.proposals_left > 0)) box.append(tradeBuilder(o.trade));
  box.append(el("label", { for: "say", class: "say" }, "Say (optional)"), el("input", { id: "say", maxlength: 500 }));
  if (d.kind === "raise_cash" || d.kind === "manage") box.append(el("p", { class: "note" }, "Click one of your properties on the board to build, sell, mortgage or lift it."));
}

function questionOf(d) {
  return d.kind.replace("_", " ") + (d.square_name ? `: ${d.square_name}` : "");
}

// Clicking a property offers the options that name it.
function markClickable() {
  const o = state.options;
  if (!o || !state.your_turn) return;
  for (const a of o.actions) {
    if (a.square === undefined) continue;
    const g = document.getElementById(`sq-${a.square}`);
    if (g) g.classList.add("clickable");
  }
}

$("#board").addEventListener("click", (ev) => {
  const g = ev.target.closest("[id^=sq-]");
  const o = state.options;
  if (!g || !o || !state.your_turn) return;
  const sq = Number(g.id.slice(3));
  const acts = o.actions.filter((a) => a.square === sq);
  if (!acts.length) return;
  const box = $("#square-menu") || $("#decision").appendChild(el("div", { id: "square-menu", class: "choices" }));
  box.replaceChildren(el("p", {}, state.view.board[sq].name + ":"), ...acts.map((a) => el("button", { type: "button", on: { click: () => answer(a) } }, describe(a))));
  box.querySelector("button")?.focus();
});

// tradeBuilder offers what the options say may be traded: the squares,
// cash and jail cards each side may put in, with each partner.
function tradeBuilder(t) {
  const counter = t.kind === "counter_trade";
  const form = el("form", { class: "trade" });
  const partners = t.partners || [];
  if (!partners.length) return el("p", { class: "note" }, "No one to trade with.");
  const to = el("select", { id: "trade-to", "aria-label": "Trade with" }, partners.map((p) => el("option", { value: p.seat }, names()[p.seat])));
  const sideBox = (label, key, side) => {
    const fs = el("fieldset", { class: "side-" + key }, el("legend", {}, label));
    const fill = (side) => {
      fs.replaceChildren(el("legend", {}, label));
      side.squares.forEach((sq, i) => fs.append(el("label", { class: "sq" }, el("input", { type: "checkbox", value: sq }), " " + side.square_names[i])));
      for (const deck of side.jail_cards || []) fs.append(el("label", { class: "card" }, el("input", { type: "checkbox", value: deck }), ` jail card (${deck})`));
      fs.append(el("label", {}, t.sealed ? (key === "give" ? "Most cash you pay " : "Least cash you take ") : "Cash ",
        el("input", { type: "number", min: 0, max: side.max_cash, value: 0, class: "cash", "aria-label": label + " cash" })));
    };
    fill(side());
    to.addEventListener("change", () => fill(side()));
    return fs;
  };
  const partner = () => partners.find((p) => p.seat === Number(to.value)) || partners[0];
  const give = sideBox("You give", "give", () => t.give);
  const get = sideBox("You get", "get", () => partner().get);
  form.append(el("h3", {}, counter ? "Counter-offer" : "Propose a trade"), el("label", { for: "trade-to" }, "With "), to, give, get);
  if (t.limits) form.append(el("p", { class: "note" }, t.limits));
  form.append(el("button", { type: "submit" }, counter ? "Counter" : "Propose"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const side = (fs) => ({
      squares: [...fs.querySelectorAll(".sq input:checked")].map((i) => Number(i.value)),
      cash: Number(fs.querySelector(".cash").value) || 0,
      jail_cards: [...fs.querySelectorAll(".card input:checked")].map((i) => i.value),
    });
    answer({ kind: t.kind, offer: { to: Number(to.value), give: side(give), get: side(get) } });
  });
  return form;
}

document.addEventListener("keydown", (ev) => {
  if (ev.target.matches("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const b = document.querySelector(`#decision button[data-key="${ev.key}"]`);
  if (b) {
    ev.preventDefault();
    b.click();
  }
});

// ---- pacing, scrubbing, forking -----------------------------------------

function drawPace() {
  const p = state.pace || {};
  $("#pace").hidden = !(p.paced && control);
  $("#pause").textContent = p.paused ? "Resume" : "Pause";
  $("#pause").setAttribute("aria-pressed", String(!!p.paused));
  if (p.speed) $("#speed").value = String(p.speed);
}
const pace = (body) => post("/pace", body).then((p) => ((state.pace = p), drawPace())).catch(showRefusal);
$("#pause").addEventListener("click", () => pace({ pause: !state.pace.paused }));
$("#step").addEventListener("click", () => pace({ step: true }));
$("#speed").addEventListener("change", (ev) => pace({ speed: Number(ev.target.value) }));

$("#scrub").addEventListener("input", (ev) => {
  const seq = Number(ev.target.value);
  const e = events[seq];
  scrubbing = seq < Number(ev.target.max);
  $("#live").disabled = !scrubbing;
  $("#scrub-at").textContent = scrubbing ? `event ${seq}${e ? ": " + e.text : ""}` : "live";
  drawBoard(scrubbing && e ? e.entry + 1 : undefined);
});
$("#live").addEventListener("click", () => {
  const s = $("#scrub");
  s.value = s.max;
  s.dispatchEvent(new Event("input"));
});

function forkAt(entry, take) {
  const at = entry ?? (scrubbing ? events[Number($("#scrub").value)].entry + 1 : state.entries);
  const seats = $("#fork-seats").value.trim();
  post("/fork", take === undefined ? { at, seats } : { at, take })
    .then((l) => {
      const link = take === undefined ? l.research : l.seats[take];
      const note = $("#forked");
      note.hidden = false;
      note.replaceChildren(`A new game from entry ${at}: `, el("a", { href: link, id: "fork-link" }, take === undefined ? "open it" : "play your seat"));
      if (take !== undefined) location.href = link;
    })
    .catch(showRefusal);
}
$("#fork")?.addEventListener("click", () => forkAt());

// ---- chances to win ------------------------------------------------------

let asking = false;
function askOdds() {
  if (asking) return;
  asking = true;
  setTimeout(async () => {
    try {
      const res = await fetch(q("/odds"), { headers: { Accept: "application/json" } });
      if (res.ok) {
        const o = await res.json();
        odds.push(o.win);
        drawOdds(o);
      }
    } finally {
      asking = false;
    }
  }, 300);
}

const colours = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000"]; // the board's tokens
function drawOdds(last) {
  const svg = $("#odds");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const n = odds.length;
  const x = (i) => (n < 2 ? 300 : (i / (n - 1)) * 300);
  const y = (p) => 85 - p * 80;
  last.win.forEach((_, p) => {
    const pts = odds.map((w, i) => `${x(i).toFixed(1)},${y(w[p] || 0).toFixed(1)}`).join(" ");
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", pts);
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", colours[p % colours.length]);
    line.setAttribute("stroke-width", "2");
    svg.append(line);
  });
  $("#odds-note").textContent =
    last.win.map((w, p) => `${names()[p]} ${(100 * w).toFixed(0)}%`).join(" · ") + ` — ${last.samples} playouts of ${last.bot} bots from the public position`;
}

drawPlayers();
drawDecision();
drawPace();
markClickable();
connect();
refresh();
askOdds();
