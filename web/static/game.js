// The game page: it keeps the board and the panels live from the server's
// event stream, and builds a person's answers from the legal options the
// server sends. It holds no rule: what may be done is what the options
// list, and the server checks every answer.

import { saveLinks } from "./links.js";

const root = document.getElementById("game");
const id = root.dataset.id;
const token = root.dataset.token;
const csrf = root.dataset.csrf;
const seat = Number(root.dataset.seat);
const research = root.dataset.research === "true";
const control = root.dataset.control === "true";
const playedBy = JSON.parse(root.dataset.playedBy || "[]"); // by seat: "shark", "a person"…
const $ = (sel) => document.querySelector(sel);

let state = JSON.parse($("#initial").textContent);
const events = []; // every event received, by sequence number
let scrubbing = false; // the board, players and decision show a past position
let past = null; // that position: {view, decision_text}
const odds = []; // {turn, win[]}, one per position estimated

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
      drawPace();
      if (scrubbing) return; // the past stays on screen until "Back to live"
      await drawBoard();
      drawPlayers();
      drawDecision();
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

// drawPlayers shows each player of view (now, or the scrubbed past).
function drawPlayers(view = state.view) {
  const box = $("#players");
  box.replaceChildren();
  const board = view.board;
  for (const p of view.players) {
    const groups = {};
    for (const sq of p.properties || []) {
      const s = board[sq];
      const g = s.group || { railroad: "Railroads", utility: "Utilities" }[s.kind] || "Other";
      (groups[g] = groups[g] || []).push(s.name + (s.hotel ? " (hotel)" : s.houses ? ` (${s.houses}h)` : "") + (s.mortgaged ? " [M]" : ""));
    }
    // Taking a seat forks the game, which shows its past: the research view's.
    const take =
      research && !scrubbing && !view.over && !p.bankrupt
        ? el("button", { type: "button", class: "small", on: { click: () => forkAt(undefined, p.seat) } }, "take this seat")
        : null;
    box.append(
      el(
        "article",
        { class: `player p${p.seat}${p.bankrupt ? " bankrupt" : ""}${p.seat === view.current ? " current" : ""}`, "data-seat": p.seat },
        el("h3", {}, el("span", { class: `dot p${p.seat}`, "aria-hidden": "true" }, String(p.seat + 1)), " ", p.name,
          el("span", { class: "played-by" }, p.seat === seat ? " — you" : playedBy[p.seat] ? ` — ${playedBy[p.seat]}` : ""), take),
        el(
          "p",
          {},
          el("span", { class: "cash" }, money(p.cash)), ` cash · net worth ${money(p.net_worth)}`,
          p.in_jail ? " · in jail" : "",
          p.jail_cards ? ` · ${p.jail_cards} jail card${p.jail_cards > 1 ? "s" : ""}` : "",
          p.bankrupt ? " · bankrupt" : "",
        ),
        el("ul", { class: "holdings" }, Object.entries(groups).map(([g, l]) => el("li", {}, el("b", {}, g + ": "), l.join(", ")))),
      ),
    );
  }
}

// ---- the feed -------------------------------------------------------------

// One feed holds the events, the table talk, the trades and (in the
// research view) the thoughts, each line marked with what it is, so that
// the filters above it show any mix of them.
const category = { speech: "talk", trade_proposed: "trade", trade_accepted: "trade", trade_rejected: "trade", trade_countered: "trade" };

function onEvent(e) {
  const ev = e.event;
  events[ev.seq] = e;
  const who = ev.player >= 0 ? state.view.players[ev.player]?.name : "";
  const cat = category[ev.kind] || "event";
  const li = el("li", { class: `${cat} ${ev.kind} p${ev.player}`, "data-seq": ev.seq });
  if (ev.kind === "speech") {
    if (ev.speech) li.append(`${who}: “${ev.speech}”`);
    if (ev.thought) li.append(el("span", { class: "thought" }, `${who} thinks: ${ev.thought}`));
  } else li.append(e.text);
  const ol = $("#feed");
  ol.append(li);
  while (ol.children.length > 300) ol.firstChild.remove();
  ol.scrollTop = ol.scrollHeight;
  // The last few lines stay beside the decision too, where the eye is:
  // a trade's answer or a roll is seen without looking down the feed.
  if (li.textContent) {
    const latest = $("#latest");
    latest.append(li.cloneNode(true));
    while (latest.children.length > 3) latest.firstChild.remove();
  }
  if (ev.kind === "turn_start") askOdds();
  const scrub = $("#scrub");
  scrub.max = ev.seq;
  if (!scrubbing) scrub.value = ev.seq;
  refresh();
}

for (const box of document.querySelectorAll("#filters input")) {
  const show = () => $("#feed").classList.toggle("no-" + box.value, !box.checked);
  box.addEventListener("change", show);
  show();
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
      // An answer to a decision the game has moved past (a second click,
      // another tab) changes nothing: the page shows the decision now.
      if (p.code === "stale_decision") return refresh();
      $("#decision").querySelectorAll("button").forEach((b) => (b.disabled = false));
      showRefusal(p);
    });
}

// showRefusal says why an answer was refused, in the server's words for
// people (the code stays in the JSON for programs).
function showRefusal(p) {
  const box = $("#refusal") || $("#decision").appendChild(el("p", { id: "refusal", class: "refusal", role: "alert" }));
  box.textContent = `${p.message || "Refused"}${/[.!?]$/.test(p.message || "") ? "" : "."} Nothing changed.`;
}

// describe is an option's label for people: the server's label, else
// its notation; never the code.
function describe(a) {
  const o = state.options;
  const i = o.actions.indexOf(a);
  return (state.labels && state.labels[i]) || (o.notation && o.notation[i]) || `Option ${i + 1}`;
}

// waiting says whom the game waits for, in the server's words when it
// sends them.
function waiting(d) {
  return state.waiting_text || (d.player >= 0 ? `Waiting for ${names()[d.player]}…` : "");
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
    box.append(el("h2", {}, "Watching"), el("p", {}, waiting(d)));
    return;
  }
  if (!state.your_turn || !state.options) {
    box.append(el("h2", {}, "Your seat"), el("p", {}, waiting(d)));
    return;
  }
  const o = state.options;
  box.append(el("h2", {}, "Your move"), el("p", { class: "question" }, state.decision_text || "Your decision"));
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
  if (o.trade && (o.trade.kind === "counter_trade" || o.trade.proposals_left > 0)) {
    // A proposal is a choice among others: folded until wanted, so that
    // the buttons stay in sight. A counter-offer is the answer asked for.
    const counter = o.trade.kind === "counter_trade";
    box.append(el("details", { class: "trade-box", open: counter }, el("summary", {}, counter ? "Counter-offer" : "Propose a trade…"), tradeBuilder(o.trade)));
  }
  box.append(el("label", { for: "say", class: "say" }, "Say (optional)"), el("input", { id: "say", maxlength: 500 }));
  if (d.kind === "raise_cash" || d.kind === "manage") box.append(el("p", { class: "note" }, "Click one of your properties on the board to build, sell, mortgage or lift it."));
}

// drawPast shows the decision at the scrubbed point, which no one can
// answer any more.
function drawPast() {
  const v = past.view;
  const w = v.winner;
  $("#decision").replaceChildren(
    el("h2", {}, "Replay"),
    el("p", { class: "question" }, v.over ? (w >= 0 ? `${v.players[w].name} wins` : "Game over") : past.decision_text),
    el("p", { class: "note" }, "This is the game as it stood then: “Back to live” returns to now."),
  );
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
      for (const deck of side.jail_cards || []) fs.append(el("label", { class: "jail" }, el("input", { type: "checkbox", value: deck }), ` Get Out of Jail Free (${deckName(deck)})`));
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
  form.append(el("label", { for: "trade-to" }, "With "), to, give, get);
  if (t.limits) form.append(el("p", { class: "note" }, t.limits));
  form.append(el("button", { type: "submit" }, counter ? "Counter" : "Propose"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    // ":scope" keeps each side to its own boxes: without it a selector
    // also matches through the fieldset's ancestors.
    const side = (fs) => ({
      squares: [...fs.querySelectorAll(":scope .sq input:checked")].map((i) => Number(i.value)),
      cash: Number(fs.querySelector(":scope .cash").value) || 0,
      jail_cards: [...fs.querySelectorAll(":scope .jail input:checked")].map((i) => i.value),
    });
    answer({ kind: t.kind, offer: { to: Number(to.value), give: side(give), get: side(get) } });
  });
  return form;
}

const deckName = (deck) => ({ chance: "Chance", community_chest: "Community Chest" })[deck] || "a deck";

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

// Scrubbing shows the whole page as it stood after the event: board,
// players and decision alike.
let scrubbed = 0; // the latest scrub asked, so that a slow answer to an earlier one is dropped
$("#scrub").addEventListener("input", async (ev) => {
  const seq = Number(ev.target.value);
  const e = events[seq];
  const asked = ++scrubbed;
  scrubbing = seq < Number(ev.target.max);
  $("#live").disabled = !scrubbing;
  $("#scrub-at").textContent = scrubbing ? `event ${seq + 1}${e ? ": " + e.text : ""}` : "live";
  if (!scrubbing || !e) {
    past = null;
    await drawBoard();
    drawPlayers();
    drawDecision();
    return;
  }
  const at = e.entry + 1;
  const res = await fetch(q(`/past?at=${at}`), { headers: { Accept: "application/json" } });
  if (!res.ok || asked !== scrubbed) return;
  past = await res.json();
  await drawBoard(at);
  drawPlayers(past.view);
  drawPast();
});
// On a phone the board is small: zoomed, it keeps its desktop size in a
// box that pans, and the page itself does not scroll sideways.
$("#zoom").addEventListener("click", (ev) => {
  const on = $("#board").classList.toggle("zoomed");
  ev.target.setAttribute("aria-pressed", String(on));
  ev.target.textContent = on ? "Fit the board" : "Zoom the board";
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
      saveLinks(l); // the lobby offers its seats and research view in this browser too
      const note = $("#forked");
      note.hidden = false;
      // A person's seat in the fork waits for its link to be opened:
      // each one is shown, named by its player.
      const seatLinks = l.seats.flatMap((s, i) => (s ? [" · ", el("a", { href: s, class: "fork-seat", "data-seat": i }, `play seat ${i + 1}`)] : []));
      note.replaceChildren("A new game from here: ", el("a", { href: l.research, id: "fork-link" }, "open it"), ...seatLinks);
      if (take !== undefined) location.href = l.seats[take];
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
        const turn = state.view.turn;
        if (odds.length && odds[odds.length - 1].turn === turn) odds.pop(); // one point per turn: the latest estimate
        odds.push({ turn, win: o.win });
        drawOdds(o);
      }
    } finally {
      asking = false;
    }
  }, 300);
}

const colours = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000"]; // the board's tokens
const ns = "http://www.w3.org/2000/svg";
const svgEl = (tag, attrs, text) => {
  const e = document.createElementNS(ns, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

// drawOdds draws each player's chance to win, turn by turn, on axes from
// 0 to 100% and from the first turn estimated to the last, with a dot
// for every estimate so that one estimate is already a chart.
function drawOdds(last) {
  const svg = $("#odds");
  svg.replaceChildren();
  const [left, right, top, bottom] = [34, 292, 8, 96];
  const first = odds[0].turn, lastTurn = odds[odds.length - 1].turn;
  const x = (t) => (lastTurn === first ? left + 14 : left + ((t - first) / (lastTurn - first)) * (right - left));
  const y = (p) => bottom - p * (bottom - top);
  for (const p of [0, 0.5, 1]) {
    svg.append(svgEl("line", { x1: left, x2: right, y1: y(p), y2: y(p), class: p ? "grid" : "axis" }));
    svg.append(svgEl("text", { x: left - 4, y: y(p) + 4, "text-anchor": "end" }, `${p * 100}%`));
  }
  svg.append(svgEl("line", { x1: left, x2: left, y1: top, y2: bottom, class: "axis" }));
  svg.append(svgEl("text", { x: left, y: 112 }, `turn ${first}`));
  if (lastTurn !== first) svg.append(svgEl("text", { x: right, y: 112, "text-anchor": "end" }, `turn ${lastTurn}`));
  last.win.forEach((_, p) => {
    const pts = odds.map((o) => [x(o.turn), y(o.win[p] || 0)]);
    const c = colours[p % colours.length];
    if (pts.length > 1) svg.append(svgEl("polyline", { points: pts.map((q) => q.map((v) => v.toFixed(1)).join(",")).join(" "), fill: "none", stroke: c, "stroke-width": 2 }));
    const [lx, ly] = pts[pts.length - 1];
    svg.append(svgEl("circle", { cx: lx, cy: ly, r: 3.5, fill: c }));
  });
  $("#odds-legend").replaceChildren(
    ...last.win.map((w, p) => el("li", {}, el("span", { class: `swatch p${p}`, "aria-hidden": "true" }), `${names()[p]} ${(100 * w).toFixed(0)}%`)),
  );
  $("#odds-note").textContent = `Each point: ${last.samples} playouts by ${last.bot} bots from the public position · ${odds.length} point${odds.length === 1 ? "" : "s"} so far`;
}

drawPlayers();
drawDecision();
drawPace();
markClickable();
connect();
refresh();
askOdds();
