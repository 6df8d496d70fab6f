// The phone: draws the seat's `view` (docs/api.md) and sends moves. The view embedded in the
// page draws at once; Socket.IO sends a complete one on every (re)connect and after every change.

import { refusal, t } from "./i18n.js";
import {
  $, activation, bdi, diceSum, die, fill, followConnection, h, num, paidWords, requestId, signed, signedText, tx,
} from "./dom.js";
import { confirmWith } from "./feedback.js";

// The page's data and its cards, for play-coop.js too, and how coins read.
export const data = JSON.parse($("page-data").textContent);
export const cards = new Map(data.cards.map((card) => [card.id, card]));
export const cardName = (id) => cards.get(id)?.name ?? id;
const coins = (n) => (n === 1 ? t("1 coin") : tx("{n} coins", { n: num(n) }));
const landmarks = data.cards.filter((c) => c.kind === "landmark");
export const landmarkCount = landmarks.length;
const landmarkWith = (effect) => landmarks.find((c) => c.effect === effect);

let view = null;
let viewAt = 0; // performance.now() when the view arrived, for the choice timer
let pending = null; // the card waiting for the build confirmation

// ------------------------------------------------------------------ connection

const socket = io({ reconnectionDelayMax: 3000 });
followConnection(socket, $("connection"), (error) => notify(refusal("seat/unknown_token", error.message)));
socket.on("view", (next) => receive(next));
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !socket.connected) socket.connect();
});

async function send(move) {
  if (!socket.connected) return { ok: false, code: "client/offline" };
  try {
    const answer = await socket.timeout(8000).emitWithAck("move", { request_id: requestId(), move });
    if (answer.ok && answer.view) receive(answer.view);
    return answer;
  } catch {
    return { ok: false, code: "client/timeout" };
  }
}

export async function act(move, done) {
  const answer = await send(move);
  if (!answer.ok) {
    notify(refusal(answer.code, answer.message), "refused");
    if (view) draw(); // buttons come back; the view is unchanged
  } else if (done) {
    notify(done, "done");
  }
  return answer;
}

function notify(message, kind = "refused") {
  const box = $("notice");
  box.dataset.kind = kind;
  box.textContent = message;
  box.hidden = false;
}

// ------------------------------------------------------------------ drawing

function receive(next) {
  if (view && next.seq < view.seq) return; // an older view overtaken by a newer one
  const before = view?.players[next.seat]?.coins;
  const rolled = view && next.seq !== view.seq && next.dice.length > 0 && (next.turn !== view.turn
    || JSON.stringify(next.dice) !== JSON.stringify(view.dice)); // a hall roll may repeat last turn's number
  view = next;
  viewAt = performance.now();
  draw();
  document.dispatchEvent(new CustomEvent("companion:view", { detail: next })); // play-coop.js
  const after = next.players[next.seat].coins;
  if (typeof before === "number" && after > before) confirmWith("income");
  if (rolled) announceRoll();
}

function draw() {
  const me = view.players[view.seat];
  $("coins").textContent = me.coins ?? "–";
  $("turn").textContent = view.turn ? t("Turn {n}", { n: view.turn }) : "";
  fill($("status"), statusLine());
  drawPrompt();
  drawLastRoll();
  drawMarket();
  drawCity(me);
  drawOthers();
}

function statusLine() {
  const hallMode = view.table.roll_mode === "hall";
  const active = view.players[view.active];
  if (view.winner !== null && view.winner !== undefined) {
    return view.winner === view.seat ? t("You won!") : tx("{name} won!", { name: bdi(view.players[view.winner].name) });
  }
  if (view.table.status === "setup") return t("The table has not started yet.");
  if (view.table.status === "paused") return t("The table is paused.");
  if (view.table.status === "ended") return t("The table has ended.");
  if (view.active !== view.seat) return tx("{name}'s turn", { name: bdi(active.name) });
  const mine = {
    roll: hallMode ? t("Your turn: wait for the hall roll.") : t("Your turn: roll the dice."),
    reroll: t("Your turn: keep this roll or roll again?"),
    choose: t("Your turn: make your choice."),
    build: hallMode ? t("Build one thing before the next hall roll, or end your turn.")
      : t("Your turn: build one thing, or end your turn."),
  };
  return mine[view.phase] ?? "";
}

function announceRoll() {
  const sum = diceSum(view.dice);
  const name = view.players[view.active].name;
  const mine = view.entries.filter((e) => e.to_seat === view.seat).reduce((a, e) => a + e.amount, 0)
    - view.entries.filter((e) => e.from_seat === view.seat).reduce((a, e) => a + e.amount, 0);
  $("announce").textContent = t("{name} rolled {sum}. Your coins: {change}.", {
    name, sum, change: signedText(mine),
  });
}

// ------------------------------------------------------------------ choices

const kinds = (kind) => view.choices.filter((c) => c.kind === kind);

function drawPrompt() {
  const box = $("prompt");
  const parts = [timer(), diceCount(), rollButton(), rerollPrompt(), tvPrompt(), swapPrompt(), endTurn()];
  fill(box, parts);
  box.hidden = !box.childElementCount;
}

function button(label, move, done, attrs = {}) {
  return h("button", {
    type: "button", ...attrs,
    onclick: async (event) => {
      event.currentTarget.disabled = true;
      await act(move, done);
    },
  }, label);
}

function timer() {
  if (view.active !== view.seat || view.waited === null || view.waited === undefined) return null;
  return h("p", { class: "timer", id: "timer" });
}

function tickTimer() {
  const element = $("timer");
  if (!element || !view || view.waited === null) return;
  const left = Math.max(0, Math.ceil(view.choice_seconds - view.waited - (performance.now() - viewAt) / 1000));
  element.textContent = left > 0 ? t("{seconds} s left, then the default applies.", { seconds: left })
    : t("Time is up: the default applies.");
}
setInterval(tickTimer, 500);

function diceCount() {
  const me = view.players[view.seat];
  const other = kinds("dice_count")[0];
  if (!other && me.dice_count === 1) return null;
  const choose = (count) => h("button", {
    type: "button", class: "toggle", "aria-pressed": String(me.dice_count === count),
    disabled: me.dice_count === count || !other,
    onclick: () => act({ kind: "dice_count", count }),
  }, count === 1 ? t("1 die") : t("2 dice"));
  return h("div", { class: "dice-count", role: "group", "aria-label": t("How many dice I roll") },
    h("span", {}, t("I roll:")), choose(1), choose(2));
}

function rollButton() {
  if (!kinds("roll").length) return null;
  return button(t("Roll the dice"), { kind: "roll" }, null, { class: "primary big" });
}

function rerollPrompt() {
  if (!kinds("keep").length) return null;
  const sum = diceSum(view.dice);
  return h("div", { class: "choice" },
    h("p", {}, t("{card}: keep {sum} or roll again?", { card: cardName("radio_tower"), sum })),
    h("div", { class: "row" }, button(t("Keep {sum}", { sum }), { kind: "keep" }),
      button(t("Roll again"), { kind: "reroll" }, null, { class: "secondary" })));
}

function tvPrompt() {
  const targets = kinds("tv_station");
  if (!targets.length) return null;
  const amount = cards.get("tv_station")?.amount ?? 5;
  return h("div", { class: "choice" },
    h("p", {}, t("{card}: take {amount} coins from whom?", { card: cardName("tv_station"), amount })),
    h("div", { class: "row" }, targets.map((move) => {
      const player = view.players[move.target];
      return button(tx("{name} ({coins})", { name: bdi(player.name), coins: num(player.coins) }), move);
    })));
}

function swapPrompt() {
  const swaps = kinds("business_center").filter((m) => !m.decline);
  const decline = kinds("business_center").find((m) => m.decline);
  if (!decline) return null;
  const others = [...new Set(swaps.map((m) => m.with))];
  const select = (id, label, options) => h("label", { for: id }, label,
    h("select", { id }, options.map((value) => h("option", { value }, cardName(value)))));
  const form = h("div", { class: "swap" });
  const drawFor = (seat) => {
    const mine = swaps.filter((m) => m.with === seat);
    fill(form,
      select("swap-give", t("I give"), [...new Set(mine.map((m) => m.give))]),
      select("swap-take", t("I take"), [...new Set(mine.map((m) => m.take))]),
      h("button", {
        type: "button",
        onclick: () => act({ kind: "business_center", with: seat, give: $("swap-give").value, take: $("swap-take").value }),
      }, t("Swap")));
  };
  const players = h("div", { class: "row", role: "group", "aria-label": t("Swap with") }, others.map((seat) =>
    h("button", { type: "button", class: "secondary", onclick: () => drawFor(seat) }, bdi(view.players[seat].name))));
  return h("div", { class: "choice" },
    h("p", {}, t("{card}: swap one card with another player, or not.", { card: cardName("business_center") })),
    players, form, button(t("No swap"), decline, null, { class: "secondary" }));
}

function endTurn() {
  if (!kinds("end_turn").length) return null;
  return button(t("End my turn"), { kind: "end_turn" }, null, { class: "secondary" });
}

// ------------------------------------------------------------------ the last roll

function entryLine(entry) {
  const me = view.seat;
  const amount = (sign) => signed(sign * entry.amount);
  const card = entry.card === "adjustment" ? null : cardName(entry.card);
  let line;
  if (entry.card === "adjustment") {
    line = tx("{amount} correction: {reason}", { amount: amount(entry.to_seat === me ? 1 : -1), reason: entry.reason });
  } else if (entry.to_seat === me && entry.from_seat === "bank") {
    const mall = landmarkWith("mall_bonus");
    const params = { amount: amount(1), card, copies: entry.copies, landmark: mall?.name ?? "" };
    const many = entry.copies > 1;
    if (entry.mall_bonus && many) line = tx("{amount} {card} ×{copies} with {landmark}", params);
    else if (entry.mall_bonus) line = tx("{amount} {card} with {landmark}", params);
    else if (many) line = tx("{amount} {card} ×{copies}", params);
    else line = tx("{amount} {card}", params);
  } else if (entry.to_seat === me) {
    line = tx("{amount} from {name}, {card}", { amount: amount(1), name: bdi(entry.from), card });
  } else if (entry.from_seat === me && entry.to_seat === "bank") {
    line = tx("{amount} built {card}", { amount: amount(-1), card });
  } else if (entry.from_seat === me) {
    line = tx("{amount} to {name}, {card}", { amount: amount(-1), name: bdi(entry.to), card });
  } else {
    return null;
  }
  if (entry.forgiven) line = tx("{line}; {forgiven} forgiven", { line, forgiven: num(entry.forgiven) });
  return h("li", { class: entry.to_seat === me ? "gain" : "loss" }, line);
}

// The others' coins at the table, as the hall screen's tile says them (not corrections).
function feedLine(entry) {
  const mine = entry.to_seat === view.seat || entry.from_seat === view.seat;
  return mine || entry.card === "adjustment" ? null : h("li", {}, paidWords(entry, cardName));
}

function drawLastRoll() {
  const sum = diceSum(view.dice);
  fill($("dice"), view.dice.length ? [
    view.dice.map((value) => die(value)),
    h("span", { class: "sum" }, tx("= {sum}", { sum: num(sum) })),
    h("span", { class: "roller" }, bdi(view.players[view.active]?.name ?? "")),
  ] : h("p", { class: "note" }, t("No roll yet.")));
  const mine = view.entries.map(entryLine).filter(Boolean);
  fill($("breakdown"), mine.length ? mine : (view.dice.length ? h("li", { class: "none" }, t("Nothing for you this roll.")) : null));
  fill($("table-feed"), view.entries.map(feedLine).filter(Boolean));
}

// ------------------------------------------------------------------ building

function whyNot(card, me) {
  if (view.winner !== null && view.winner !== undefined) return t("The game is over.");
  if (view.table.status !== "running") return t("The table is not running right now.");
  if (view.active !== view.seat) return t("On your turn, after the roll.");
  if (view.phase !== "build") return t("After the roll.");
  if (view.built) return t("You have already built this turn.");
  if (card.kind === "landmark" && me.landmarks.includes(card.id)) return t("Built.");
  if (card.kind === "establishment" && !(view.supply[card.id] > 0)) return t("Sold out.");
  if (card.colour === "purple" && me.cards[card.id]) return t("You own one already.");
  const short = card.cost - me.coins;
  if (short > 0) return short === 1 ? t("1 more coin needed.") : t("{n} more coins needed.", { n: short });
  return t("Not possible now.");
}

function drawMarket() {
  const me = view.players[view.seat];
  const buildable = new Set(kinds("build").map((m) => m.card));
  const myTurnToBuild = view.active === view.seat && view.phase === "build" && !view.built;
  $("build-note").textContent = myTurnToBuild ? t("Tap a card to build it.") : whyNot({ kind: "none" }, me);
  const items = data.cards.filter((card) => !(card.kind === "landmark" && me.landmarks.includes(card.id)))
    .map((card) => {
      const ok = buildable.has(card.id);
      const reasonId = `why-${card.id}`;
      const details = card.kind === "landmark" ? t("Landmark") : num(activation(card.activation));
      const stock = card.kind === "establishment" ? t("{n} left", { n: view.supply[card.id] ?? 0 }) : "";
      return h("li", { class: `card ${card.colour ?? "landmark"}` },
        buildButton(card, ok, [details, stock ? ` · ${stock}` : ""], { "aria-describedby": ok ? null : reasonId }),
        ok ? null : h("p", { class: "why", id: reasonId }, whyNot(card, me)));
    });
  fill($("market"), items);
}

// A card of a build list (this one, the co-op market row): its name, cost and `details`;
// a tap asks to confirm the build.
export function buildButton(card, ok, details, attrs = {}) {
  return h("button", {
    type: "button", class: "build-card", disabled: !ok, "data-card": card.id, ...attrs,
    onclick: () => confirmBuild(card),
  },
  h("span", { class: "name" }, card.name),
  h("span", { class: "cost" }, coins(card.cost)),
  h("span", { class: "meta" }, details));
}

function confirmBuild(card) {
  pending = card;
  $("confirm-text").textContent = card.cost === 1 ? t("Build {card} for 1 coin?", { card: card.name })
    : t("Build {card} for {cost} coins?", { card: card.name, cost: card.cost });
  $("confirm").showModal();
}

$("confirm-cancel").addEventListener("click", () => $("confirm").close());
$("confirm-ok").addEventListener("click", async () => {
  $("confirm").close();
  const card = pending;
  pending = null;
  if (!card) return;
  const answer = await act({ kind: "build", card: card.id }, t("Built: {card}.", { card: card.name }));
  if (answer.ok) confirmWith("build");
});

// ------------------------------------------------------------------ cities

function drawCity(me) {
  fill($("landmarks"), landmarks.map((lm) => {
    const built = me.landmarks.includes(lm.id);
    return h("li", { class: built ? "built" : "todo" }, h("span", { "aria-hidden": "true" }, built ? "★ " : "☆ "),
      lm.name, h("span", { class: "visually-hidden" }, built ? ` (${t("built")})` : ` (${t("not built")})`));
  }));
  const owned = data.cards.filter((c) => c.kind === "establishment" && me.cards[c.id]);
  fill($("cards"), owned.map((card) => h("li", { class: `card ${card.colour}` },
    h("span", { class: "name" }, card.name), h("span", { class: "meta" }, num(activation(card.activation))),
    h("span", { class: "count" }, tx("×{n}", { n: num(me.cards[card.id]) })))));
}

function drawOthers() {
  fill($("players"), view.players.filter((p) => p.seat !== view.seat).map((player) => h("li", {
    class: player.seat === view.active ? "active" : "",
  },
  h("span", { class: "name" }, bdi(player.name), player.seat === view.active ? h("span", { class: "turn-mark" }, ` · ${t("turn")}`) : null),
  h("span", { class: "coins" }, coins(player.coins ?? "–")),
  h("span", { class: "landmarks", title: player.landmarks.map(cardName).join(", ") },
    tx("{count} landmarks", { count: num(`${player.landmarks.length}/${landmarkCount}`) })))));
}

receive(data.view);
