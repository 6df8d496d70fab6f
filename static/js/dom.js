// Small DOM helpers shared by the page modules. Text always goes in as text nodes, never as
// HTML, so a player named <b>x</b> shows as exactly that.

import { t } from "./i18n.js";

// The page's element with this id.
export const $ = (id) => document.getElementById(id);

// Whether the reader asked for less motion (asked each time: it can change while a page is open).
export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// The total of a roll's dice.
export const diceSum = (dice) => dice.reduce((a, b) => a + b, 0);

// h("li", {class: "x", onclick: f}, "text", child): an element with attributes and children.
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") element.className = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

// A name kept in its own direction inside text of the other direction (Hebrew pages).
export const bdi = (text) => h("bdi", {}, text);

// A number (or a signed amount) that keeps its order in right-to-left text.
export const num = (value) => h("span", { class: "num" }, String(value));

// A change of coins as text: "+3", "−2" (a minus sign, not a hyphen), and "0" for a debt
// nobody could pay (all of it forgiven).
export const signedText = (amount) => {
  if (amount > 0) return `+${amount}`;
  return amount < 0 ? `−${-amount}` : "0";
};

export const signed = (amount) => num(signedText(amount));

// tx(msgid, {amount: num(...), name: bdi(...)}): the translation with
// elements (or text) in its placeholders, as a fragment.
export function tx(msgid, params = {}) {
  const fragment = document.createDocumentFragment();
  const text = t(msgid, Object.fromEntries(Object.keys(params).map((k) => [k, `{${k}}`])));
  for (const part of text.split(/(\{\w+\})/)) {
    const name = part.match(/^\{(\w+)\}$/)?.[1];
    if (name && name in params) append(fragment, [params[name]]);
    else if (part) fragment.append(part);
  }
  return fragment;
}

// Replace an element's children.
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

// A die with its pips, readable by screen readers as its number.
export function die(value, extraClass = "") {
  const pips = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
  const cells = [];
  for (let cell = 1; cell <= 9; cell += 1) {
    cells.push(h("span", { class: (pips[value] || []).includes(cell) ? "pip on" : "pip" }));
  }
  return h("span", { class: `die ${extraClass}`.trim(), role: "img", "aria-label": t("die showing {n}", { n: value }) }, cells);
}

// The dice sums that activate a card: "7", "2–3", "1, 3".
export function activation(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const contiguous = sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1);
  if (sorted.length > 1 && contiguous) return `${sorted[0]}–${sorted[sorted.length - 1]}`;
  return sorted.join(", ");
}

// A hall roll in words, for the projector's announcement and the console: "Roll 3: 2 and 5, total 7."
export const rollWords = (n, [d1, d2]) => t("Roll {n}: {d1} and {d2}, total {sum}.", { n, d1, d2, sum: d1 + d2 });

// A coin movement of the last roll (an entry of a view) in words, for the hall screen's tiles
// and the phone's feed of the others: "Ann +1 Bakery", "Ann built Cafe", "Ben paid 1 to Ann, Cafe".
export function paidWords(entry, cardName) {
  const card = entry.card === "adjustment" ? t("correction") : cardName(entry.card);
  if (entry.from_seat === "bank") return tx("{name} {amount} {card}", { name: bdi(entry.to), amount: signed(entry.amount), card });
  if (entry.to_seat === "bank" && entry.card !== "adjustment") return tx("{name} built {card}", { name: bdi(entry.from), card });
  if (entry.to_seat === "bank") return tx("{name} {amount} {card}", { name: bdi(entry.from), amount: signed(-entry.amount), card });
  return tx("{payer} paid {amount} to {payee}, {card}", { payer: bdi(entry.from), payee: bdi(entry.to), amount: num(entry.amount), card });
}

// A request id for a move: random, made up by the phone (crypto.randomUUID needs HTTPS).
export function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A page's connection badge follows its socket: connecting, connected, reconnecting, or refused
// (the server turned the page away: `refused(error)` says why where the page can).
export function followConnection(socket, badge, refused = () => {}) {
  const words = {
    connected: t("Connected"),
    reconnecting: t("Reconnecting…"),
    refused: t("Not connected"),
  };
  const show = (state) => {
    badge.dataset.state = state;
    badge.textContent = words[state];
  };
  socket.on("connect", () => show("connected"));
  socket.on("disconnect", () => show("reconnecting"));
  // This device's seat got a new card: stop here and say why, as for a refused connection.
  socket.on("revoked", (answer) => {
    socket.disconnect();
    show("refused");
    refused(answer);
  });
  socket.on("connect_error", (error) => {
    show(socket.active ? "reconnecting" : "refused");
    if (!socket.active) refused(error);
  });
}
