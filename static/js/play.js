// The phone: draws the seat's `view` (docs/api.md), whole on load and (re)connect, patched by
// the table's `table` messages; sends moves.

import { lang, refusal, t } from "./i18n.js";
import {
  $, activation, bdi, diceSum, die, fill, followConnection, h, num, paidWords, requestId, signed, signedText, tx,
} from "./dom.js";
import { confirmWith } from "./feedback.js";
import { coinWords as coins, drawBuilds } from "./play-build.js";

export const data = JSON.parse($("page-data").textContent);
const cardList = data.cards ?? [];
export const cards = new Map(cardList.map((card) => [card.id, card]));
export const cardName = (id) => cards.get(id)?.name ?? id;
const landmarks = cardList.filter((c) => c.kind === "landmark");
export const landmarkCount = landmarks.length;
const landmarkWith = (effect) => landmarks.find((c) => c.effect === effect);

export let view = null;
let viewAt = 0; // performance.now() when the view arrived, for the choice timer
// A part marked data-draws-view draws each view itself (`companion:view`, `companion:turn`).
const partDraws = document.querySelector("[data-draws-view]") !== null;
export let eventTurn = null;

// ---- connection

// WebSocket first (saves the polling handshake, about 1 kB a join); polling as the fallback.
// `table` is for a proxy in front of several server processes: it sends a table's phones to
// one process (docs/scaling.md), so a change at the table is made and sent there alone.
const socket = io({
  query: { table: data.view?.table?.id ?? "" },
  reconnectionDelayMax: 3000, transports: ["websocket", "polling"], tryAllTransports: true,
});
// A seat whose card was replaced (or a link no longer valid): say so, and offer the join form.
followConnection(socket, $("connection"), (error) => {
  notify(refusal("seat/unknown_token", error.message));
  $("notice").append(" ", h("a", { href: "/" }, t("Type the code on your card")));
});
socket.on("view", (next) => receive(next));
socket.on("table", (message) => onTable(message));
socket.on("turn", (turn) => {
  eventTurn = turn;
  document.dispatchEvent(new CustomEvent("companion:turn", { detail: turn }));
});
// A tournament's next round: on to the player's link (`moved`), only a path of this server.
socket.on("moved", (message) => {
  const path = message?.join;
  if (typeof path === "string" && path.startsWith("/") && !path.startsWith("//")) window.location.assign(path);
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !socket.connected) socket.connect();
});

async function send(move) {
  if (!socket.connected) return { ok: false, code: "client/offline" };
  try {
    // The seq of the view tapped on: `move/stale` comes with the fresh view, drawn here.
    const answer = await socket.timeout(8000).emitWithAck("move", { request_id: requestId(), seq: view?.seq, move });
    if (answer.view) receive(answer.view);
    return answer;
  } catch {
    return { ok: false, code: "client/timeout" };
  }
}

// Send a move; every tap gets an answer seen (`done` or the move's words) and felt (feedback.js);
// a part may word refusals (`refused`) or stay `quiet`. `done` may be a function, worded once the
// move is accepted (an answer's words may name the dice it brought).
export async function act(move, done, { refused = null, quiet = false } = {}) {
  const answer = await send(move);
  if (!answer.ok) {
    notify(refused?.(answer) ?? refusal(answer.code, answer.message), "refused");
    confirmWith("refused");
    if (view && !partDraws) draw(); // buttons come back; the view is unchanged
  } else if (!quiet) {
    notify((typeof done === "function" ? done() : done) ?? doneWords(move), "done");
    confirmWith(move.kind === "build" ? "build" : "done");
  }
  return answer;
}

// The words of a move no choice asks (an answer to one says its own `done` words: askPrompt).
function doneWords(move) {
  const sum = diceSum(view.dice);
  const words = {
    roll: () => t("You rolled {sum}.", { sum }),
    dice_count: () => (move.count === 1 ? t("You now roll 1 die.") : t("You now roll 2 dice.")),
    end_turn: () => t("Turn ended."),
  };
  return words[move.kind]?.() ?? t("Done.");
}

function notify(message, kind = "refused") {
  const box = $("notice");
  box.dataset.kind = kind;
  fill(box, message);
  box.hidden = false;
}

// A new turn, or an undo by the organizer, takes the notice away.
export function clearNotice() {
  const box = $("notice");
  box.hidden = true;
  box.replaceChildren();
}

// ---- a table's changes

// `table` patches the view from seq `base` (null: nothing) to `seq` (docs/api.md, hall/frames.py).
export function applyPatch(target, patch) {
  for (const [key, change] of Object.entries(patch)) {
    if (!Array.isArray(change)) applyPatch(target[key], change);
    else if (change.length) target[key] = change[0];
    else delete target[key];
  }
}

// The view after it: `current` if older or another table's, null on a gap (then: `sync`).
export function viewAfter(current, { table, base, seq, common, seats }) {
  // Older than the view, or a patch from another view of its seq: kept as it is. A whole frame
  // (base null) at the view's own seq is applied: what changed is kept in memory alone, such as
  // a board's neighbours after a rename, sent by a process that had no frame to patch.
  const older = seq < current.seq || (seq === current.seq && base !== null);
  if (table !== current.table.id || (base !== current.seq && older)) return current;
  if (base !== null && base !== current.seq) return null;
  const own = seats[current.seat];
  if (!own) return null;
  const next = base === null ? {} : structuredClone(current);
  applyPatch(next, common);
  applyPatch(next, own);
  return next;
}

let syncing = false;

async function onTable(message) {
  const next = viewAfter(view, message);
  if (next !== null) {
    if (next !== view) receive(next);
    return;
  }
  if (syncing || !socket.connected) return;
  syncing = true;
  const answer = await socket.timeout(8000).emitWithAck("sync").catch(() => ({}));
  syncing = false;
  if (answer.ok) receive(answer.view);
}

// ---- drawing

const lastUndone = (v) => JSON.stringify(v?.undone?.at(-1) ?? null);

function receive(next) {
  if (view && next.seq < view.seq) return; // an older view overtaken by a newer one
  if (partDraws) {
    view = next;
    document.dispatchEvent(new CustomEvent("companion:view", { detail: next }));
    return;
  }
  const before = view?.players[next.seat]?.coins;
  const rolled = view && next.seq !== view.seq && next.dice.length > 0 && (next.turn !== view.turn
    || JSON.stringify(next.dice) !== JSON.stringify(view.dice)); // a hall roll may repeat last turn's number
  if (view && (next.turn !== view.turn || lastUndone(next) !== lastUndone(view))) clearNotice();
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
  // a won game is celebrated, as the hall does: a banner (app.css), the market no longer shown
  const won = Number.isInteger(view.winner);
  document.body.classList.toggle("game-won", won);
  document.body.classList.toggle("i-won", won && view.winner === view.seat);
  drawPrompt();
  drawLastRoll();
  drawBuilds(view, cards, act);
  drawCity(me);
  drawOthers();
}

function statusLine() {
  const hallMode = view.table.roll_mode === "hall";
  const active = view.players[view.active];
  const place = view.players[view.seat].place;
  if (Number.isInteger(place)) { // play on after a win (RULES.md 14): my place is taken
    return view.phase === "finished" ? t("The game is over: you took place {n}.", { n: place })
      : t("You finished in place {n}; the others play on.", { n: place });
  }
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
  return mine[view.phase] ?? (view.asks?.length ? t("Your turn: make your choice.") : "");
}

function announceRoll() {
  clearNotice(); // my older notice ("Turn ended.") would stand above this roll's losses
  const sum = diceSum(view.dice);
  const name = view.players[view.active].name;
  const mine = view.entries.filter((e) => e.to_seat === view.seat).reduce((a, e) => a + e.amount, 0)
    - view.entries.filter((e) => e.from_seat === view.seat).reduce((a, e) => a + e.amount, 0);
  $("announce").textContent = t("{name} rolled {sum}. Your coins: {change}.", {
    name, sum, change: signedText(mine),
  });
}

// ---- choices

const kinds = (kind) => view.choices.filter((c) => c.kind === kind);

function drawPrompt() {
  const box = $("prompt");
  fill(box, timer(), diceCount(), rollButton(), (view.asks ?? []).map(askPrompt), endTurn());
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
  const then = defaultWords();
  if (then) {
    element.textContent = left > 0 ? t("{seconds} s left, then: {choice}.", { seconds: left, choice: then })
      : t("Time is up: {choice}.", { choice: then });
    return;
  }
  element.textContent = left > 0 ? t("{seconds} s left, then the default applies.", { seconds: left })
    : t("Time is up: the default applies.");
}

// The default the timer applies (RULES.md 11), as its answer's label says it: "keep 7", "no
// swap" (in a sentence: lower case, unless the label starts with a name, "Dana (9)").
function defaultWords() {
  const label = (view.asks ?? []).find((ask) => ask.timed)?.options.find((o) => o.default)?.label;
  if (!label) return null;
  const words = said(label).textContent;
  return label.text.startsWith("{") ? words : words.toLocaleLowerCase(lang);
}
setInterval(tickTimer, 500);

function diceCount() {
  const me = view.players[view.seat];
  const other = kinds("dice_count")[0];
  if (!other && me.dice_count === 1) return null;
  // The current setting is the filled, pressed button.
  const choose = (count) => h("button", {
    type: "button", class: me.dice_count === count ? "toggle" : "toggle outline",
    "aria-pressed": String(me.dice_count === count), disabled: me.dice_count !== count && !other,
    onclick: me.dice_count !== count && (() => act({ kind: "dice_count", count })),
  }, count === 1 ? t("1 die") : t("2 dice"));
  return h("div", { class: "dice-count", role: "group", "aria-label": t("How many dice I roll") },
    h("span", {}, t("I roll:")), choose(1), choose(2));
}

function rollButton() {
  if (!kinds("roll").length) return null;
  return button(t("Roll the dice"), { kind: "roll" }, null, { class: "primary big" });
}

// A seat's or a card's name in this page's language (a number stays as it is).
const named = (kind, value) => (kind === "seat" ? bdi(view.players[value]?.name ?? "") : kind === "card" ? cardName(value) : value);

// Words of the view (`{text, args}`, docs/api.md), translated; an argument `{card: id}` or
// `{seat: n}` is named. In an answer's `done` words (`answer`: its move and fields) an argument
// `{field: key}` is the move's value of that field, named by the field's kind, `{dice: "sum"}`
// the dice after it; and `one` words are said instead when the argument `n` comes to 1.
function said(words, { move = {}, fields = [] } = {}) {
  const value = (arg) => {
    if (!arg || typeof arg !== "object") return arg;
    if ("field" in arg) return named(fields.find((f) => f.key === arg.field)?.kind, move[arg.field]);
    if ("dice" in arg) return diceSum(view.dice);
    return named(...Object.entries(arg)[0]);
  };
  const args = Object.fromEntries(Object.entries(words.args ?? {}).map(([key, arg]) => [key, value(arg)]));
  return tx((words.one && args.n === 1 ? words.one : words).text, args);
}

// An answer's confirmation, worded once the move is accepted (null: the generic words).
const doneSaid = (done, answer) => done && (() => said(done, answer));

// A choice the view asks (`asks`, docs/api.md "A choice as data"): its prompt, an answer picked
// by fields (the swap, the co-op gift), and a button for each other answer, the default filled
// (the picked answer's own button when there is one). Every card's question is drawn here: a
// new one needs no JS.
function askPrompt(ask) {
  const picks = ask.options.some((o) => o.fields);
  const answers = ask.options.filter((o) => !o.fields).map((o) =>
    button(said(o.label), o.move, doneSaid(o.done, o), o.default && !picks ? {} : { class: "secondary" }));
  return h("div", { class: "choice", "data-card": ask.card }, h("p", {}, said(ask.prompt)),
    ask.options.filter((o) => o.fields).map((o) => fieldsPick(o, ask)), answers.length ? h("div", { class: "row" }, answers) : null);
}

// An answer picked part by part: a number; or a first part by buttons (with whom), then the
// others in lists of the values that pick allows among the seat's `choices` (give, take).
function fieldsPick({ move, fields, label, done }, ask) {
  const [first, ...rest] = fields;
  const form = h("div", { class: "swap" });
  const id = (field) => `choice-${field.key}`;
  const send = (fixed) => h("button", {
    type: "button",
    onclick: (event) => {
      event.currentTarget.disabled = true;
      const picked = fields.filter((f) => $(id(f))).map((f) => [f.key, f.kind === "card" ? $(id(f)).value : Number($(id(f)).value)]);
      const answer = { ...fixed, ...Object.fromEntries(picked) };
      act(answer, doneSaid(done, { move: answer, fields }));
    },
  }, said(label));
  if (first.kind === "number") {
    return fill(form, h("input", {
      type: "number", id: id(first), inputmode: "numeric", min: first.min, max: first.max, value: first.min,
      "aria-label": said(first.label ?? ask.prompt).textContent,
    }), send(move));
  }
  const moves = view.choices.filter((c) => Object.entries(move).every(([k, v]) => c[k] === v) && fields.every((f) => f.key in c));
  const values = (list, field) => [...new Set(list.map((m) => m[field.key]))];
  const drawFor = (value) => {
    const mine = moves.filter((m) => m[first.key] === value);
    fill(form, rest.map((field) => h("label", { for: id(field) }, said(field.label), h("select", { id: id(field) },
      values(mine, field).map((v) => h("option", { value: v }, named(field.kind, v)))))), send({ ...move, [first.key]: value }));
    // not "give Wheat Field, take Wheat Field": the first value other than the named field's
    for (const field of rest.filter((f) => f.differs)) {
      const other = [...$(id(field)).options].find((o) => o.value !== $(`choice-${field.differs}`).value);
      if (other) other.selected = true;
    }
  };
  return [h("div", { class: "row", role: "group", "aria-label": said(first.label).textContent }, values(moves, first).map((value) =>
    h("button", { type: "button", class: "secondary", onclick: () => drawFor(value) }, named(first.kind, value)))), form];
}

function endTurn() {
  if (!kinds("end_turn").length) return null;
  return button(t("End my turn"), { kind: "end_turn" }, null, { class: "secondary" });
}

// ---- this turn's lines

// A line of mine: a change of my coins or cards this turn, with its reason (`entries`).
function entryLine(entry) {
  const me = view.seat;
  if (entry.to_seat !== me && entry.from_seat !== me) return null;
  const gain = entry.to_seat === me;
  const swap = Boolean(entry.give); // a swap's line (any card's: a Legacy game's has its own id)
  return h("li", { class: swap ? "moved" : gain ? "gain" : "loss" },
    withReasons(entry, swap ? swapWords(entry) : myWords(entry, gain)));
}

function myWords(entry, gain) {
  const amount = signed(gain ? entry.amount : -entry.amount);
  const card = cardName(entry.card);
  if (entry.card === "adjustment") return tx("{amount} correction: {reason}", { amount, reason: entry.reason });
  if (entry.to_seat === "assessor") return tx("{amount} to the assessor", { amount });
  if (gain && entry.from_seat === "bank") {
    const mall = landmarkWith("mall_bonus");
    const params = { amount, card, copies: entry.copies, landmark: mall?.name ?? "" };
    const many = entry.copies > 1;
    if (entry.mall_bonus && many) return tx("{amount} {card} ×{copies} with {landmark}", params);
    if (entry.mall_bonus) return tx("{amount} {card} with {landmark}", params);
    return many ? tx("{amount} {card} ×{copies}", params) : tx("{amount} {card}", params);
  }
  if (gain) return tx("{amount} from {name}, {card}", { amount, name: bdi(entry.from), card });
  if (entry.to_seat === "bank") return tx("{amount} built {card}", { amount, card });
  return tx("{amount} to {name}, {card}", { amount, name: bdi(entry.to), card });
}

function swapWords(entry) {
  const params = { card: cardName(entry.card), give: cardName(entry.give), take: cardName(entry.take) };
  if (entry.from_seat === view.seat) {
    return tx("{card}: you gave {give} to {name} and took {take}", { ...params, name: bdi(entry.to) });
  }
  return tx("{card}: {name} took your {take} and gave you {give}", { ...params, name: bdi(entry.from) });
}

// What was forgiven, and a choice's default: who applied it.
function withReasons(entry, line) {
  let words = line;
  if (entry.forgiven) words = tx("{line}; {forgiven} forgiven", { line: words, forgiven: num(entry.forgiven) });
  const by = { timer: t("(default: the time ran out)"), hall: t("(default at the hall roll)") }[entry.default];
  return by ? tx("{line} {why}", { line: words, why: by }) : words;
}

// The others' changes at the table, as the hall's tile says them.
function feedLine(entry) {
  if (entry.to_seat === view.seat || entry.from_seat === view.seat) return null;
  let line;
  if (entry.give) {
    line = tx("{card}: {name} gave {give} to {other} and took {take}", {
      card: cardName(entry.card), name: bdi(entry.from), other: bdi(entry.to),
      give: cardName(entry.give), take: cardName(entry.take),
    });
  } else if (entry.to_seat === "assessor") {
    line = tx("{name} gave {amount} to the assessor", { name: bdi(entry.from), amount: num(entry.amount) });
  } else {
    line = paidWords(entry, cardName);
  }
  return h("li", {}, withReasons({ ...entry, forgiven: 0 }, line));
}

// The moves the organizer undid this turn: a line of mine, or in the feed if my city is unchanged.
function undoneLines() {
  const mine = [];
  const feed = [];
  for (const note of view.undone ?? []) {
    const what = undoneWhat(note);
    const change = note.changes.find((c) => c.seat === view.seat);
    if (change) {
      mine.push(h("li", { class: change.coins > 0 ? "gain" : change.coins < 0 ? "loss" : "moved" },
        tx("{changes}: undone by the organizer ({what})", { changes: changeWords(change), what })));
    } else {
      feed.push(h("li", {}, tx("The organizer undid: {what}", { what })));
    }
  }
  return [mine, feed];
}

function undoneWhat(note) {
  const name = bdi(view.players[note.seat]?.name ?? "");
  const card = cardName(note.card);
  const words = {
    build: () => tx("{name} built {card}", { name, card }),
    correction: () => tx("correction for {name}: {reason}", { name, reason: note.reason }),
    roll: () => tx("{name} rolled {sum}", { name, sum: num(diceSum(note.dice)) }),
    swap: () => tx("{name} swapped {give} for {take}", { name, give: cardName(note.give), take: cardName(note.take) }),
    gift: () => tx("{name} gave {amount} to the assessor", { name, amount: num(note.amount) }),
    choice: () => tx("{name}'s choice: {card}", { name, card }),
    dice_count: () => tx("{name}'s choice of dice", { name }),
    end_turn: () => tx("{name} ended the turn", { name }),
  };
  return words[note.move]?.() ?? tx("a move by {name}", { name });
}

// "+2 coins, Cafe −1": a player's coins, cards and landmarks that an undo changed.
function changeWords(change) {
  const parts = [];
  if (change.coins) {
    const amount = signed(change.coins);
    parts.push(Math.abs(change.coins) === 1 ? tx("{amount} coin", { amount }) : tx("{amount} coins", { amount }));
  }
  for (const [id, count] of [...Object.entries(change.cards), ...Object.entries(change.landmarks)]) {
    parts.push(tx("{card} {count}", { card: cardName(id), count: signed(count) }));
  }
  return parts.flatMap((part, i) => (i ? [", ", part] : [part]));
}

function drawLastRoll() {
  // `added`: what a card added to the dice (the table's total is what paid)
  const sum = diceSum(view.dice) + (view.added ?? 0);
  fill($("dice"), view.dice.length ? [
    view.dice.map((value) => die(value)),
    view.added ? h("span", { class: "added" }, signed(view.added)) : null,
    h("span", { class: "sum" }, tx("= {sum}", { sum: num(sum) })),
    h("span", { class: "roller" }, bdi(view.players[view.active]?.name ?? "")),
  ] : h("p", { class: "note" }, t("No roll yet.")));
  const [undoneMine, undoneFeed] = undoneLines();
  const mine = [...view.entries.map(entryLine).filter(Boolean), ...undoneMine];
  fill($("breakdown"), mine.length ? mine : (view.dice.length ? h("li", { class: "none" }, t("Nothing for you this roll.")) : null));
  fill($("table-feed"), [...view.entries.map(feedLine).filter(Boolean), ...undoneFeed]);
}

// ---- cities

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
  h("span", { class: "name" }, bdi(player.name), player.seat === view.active ? h("span", { class: "turn-mark" }, ` · ${t("turn")}`) : null,
    Number.isInteger(player.place) ? h("span", { class: "place-mark" }, ` · ${t("Place {n}", { n: player.place })}`) : null),
  h("span", { class: "coins" }, coins(player.coins ?? "–")),
  h("span", { class: "landmarks", title: player.landmarks.map(cardName).join(", ") },
    tx("{count} landmarks", { count: num(`${player.landmarks.length}/${landmarkCount}`) })))));
}

receive(data.view);
