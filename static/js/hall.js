// The hall projector: draws the `hall` view (docs/api.md) of one event. Read only, nothing to
// click: the dice of the last hall roll, a tile per table, the standings, the histogram of the
// hall's rolls against the two-dice curve. The view embedded in the page draws at once.

import { t } from "./i18n.js";
import {
  $, bdi, diceSum, die, fill, followConnection, h, num, paidWords, reducedMotion, rollWords, tx,
} from "./dom.js";
import { coopTile, followAssessor } from "./hall-coop.js";

const data = JSON.parse($("page-data").textContent);
const cards = new Map(data.cards.map((card) => [card.id, card]));
const cardName = (id) => cards.get(id)?.name ?? id;
const landmarkCount = data.cards.filter((c) => c.kind === "landmark").length;
const PAGE_SECONDS = 10;
const TUMBLE_MS = 800; // the dice's tumble; a co-op assessor's turn plays after it

let view = null;
let viewAt = 0;
let page = 0;

// ------------------------------------------------------------------ connection

const socket = io({ auth: { hall: data.event }, reconnectionDelayMax: 3000 });
followConnection(socket, $("connection"));
socket.on("hall", (next) => receive(next));

// A projector should not fall asleep (only where the browser allows it: secure contexts).
if (navigator.wakeLock) navigator.wakeLock.request("screen").catch(() => {});

function receive(next) {
  const rolled = view !== null && next.rolls.length > view.rolls.length;
  const first = view === null;
  view = next;
  viewAt = performance.now();
  followAssessor(view.tables, { first, delay: rolled && !reducedMotion() ? TUMBLE_MS : 0 }, redrawTile);
  drawRoll(rolled);
  drawHistogram();
  drawTiles();
  drawStandings();
}

// ------------------------------------------------------------------ the roll

function drawRoll(animate) {
  const rolls = view.rolls;
  $("roll-number").textContent = rolls.length ? t("Roll {n}", { n: rolls.length }) : t("Waiting for the first roll");
  const box = $("dice");
  if (!rolls.length) {
    fill(box);
    return;
  }
  const [d1, d2] = rolls[rolls.length - 1];
  const final = () => {
    fill(box, die(d1, "big"), die(d2, "big"), h("span", { class: "sum" }, tx("= {sum}", { sum: num(d1 + d2) })));
    $("announce").textContent = rollWords(rolls.length, [d1, d2]);
  };
  if (!animate || reducedMotion()) {
    final();
    return;
  }
  // A short tumble before the real faces: about 0.7 s, the dice the server drew at the end.
  let frames = 0;
  const timer = setInterval(() => {
    frames += 1;
    if (frames > 8) {
      clearInterval(timer);
      final();
      return;
    }
    const face = () => 1 + Math.floor(Math.random() * 6);
    fill(box, die(face(), "big rolling"), die(face(), "big rolling"), h("span", { class: "sum" }, t("= {sum}", { sum: "…" })));
  }, 85);
}

// ------------------------------------------------------------------ histogram

const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}, ...children) => {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
};

function drawHistogram() {
  const counts = new Map();
  for (const [d1, d2] of view.rolls) counts.set(d1 + d2, (counts.get(d1 + d2) ?? 0) + 1);
  const total = view.rolls.length;
  const expected = (sum) => (total * (6 - Math.abs(sum - 7))) / 36;
  const top = Math.max(1, ...counts.values(), expected(7));
  const width = 440;
  const height = 200;
  const barWidth = width / 11;
  const y = (value) => height - 24 - (value / top) * (height - 48);
  const parts = [];
  const curve = [];
  for (let sum = 2; sum <= 12; sum += 1) {
    const x = (sum - 2) * barWidth;
    const count = counts.get(sum) ?? 0;
    parts.push(svg("rect", { x: x + 4, y: y(count), width: barWidth - 8, height: height - 24 - y(count), class: "bar" }));
    parts.push(svg("text", { x: x + barWidth / 2, y: height - 4, class: "axis" }, String(sum)));
    if (count) parts.push(svg("text", { x: x + barWidth / 2, y: y(count) - 4, class: "count" }, String(count)));
    curve.push(`${x + barWidth / 2},${y(expected(sum))}`);
  }
  if (total) parts.push(svg("polyline", { points: curve.join(" "), class: "expected" }));
  const description = Array.from({ length: 11 }, (_, i) => `${i + 2}: ${counts.get(i + 2) ?? 0}`).join(", ");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "histogram-title histogram-desc" },
    svg("desc", { id: "histogram-desc" }, t("{n} rolls; by total: {counts}. The line is what fair dice give on average.", { n: total, counts: description })),
    ...parts);
  fill($("histogram"), chart, h("p", { class: "legend" }, h("span", { class: "key bar" }), t("rolled"), " ",
    h("span", { class: "key expected" }), t("expected with fair dice")));
}

// ------------------------------------------------------------------ tables

function stars(player) {
  const built = player.landmarks.length;
  return h("span", { class: "stars", role: "img", "aria-label": t("{built} of {total} landmarks", { built, total: landmarkCount }) },
    "★".repeat(built) + "☆".repeat(Math.max(0, landmarkCount - built)));
}

// The players of a table with their landmarks and coins; the one whose turn it is underlined
// (nobody's once the game is over).
function seatList(summary) {
  return h("ul", { class: "seats" }, summary.players.map((player) => h("li", {
    class: player.seat === summary.active && summary.phase !== "finished" ? "active" : "",
  }, h("span", { class: "name" }, bdi(player.name)), stars(player), h("span", { class: "coins" }, num(player.coins ?? "–")))));
}

function timeLeft(summary) {
  if (summary.waited === null || summary.waited === undefined) return null;
  const deadline = viewAt / 1000 + view.event.choice_seconds - summary.waited;
  return h("span", { class: "timer", "data-deadline": deadline });
}

function stateLine(summary) {
  const statuses = { setup: t("Not started"), paused: t("Paused"), ended: t("Ended") };
  if (summary.winner !== null && summary.winner !== undefined) {
    return tx("{name} won!", { name: bdi(summary.players[summary.winner].name) });
  }
  if (statuses[summary.status]) return statuses[summary.status];
  const name = bdi(summary.active_name ?? "");
  if (summary.waiting) {
    const card = summary.waiting === "reroll" ? cardName("radio_tower") : cardName(summary.waiting);
    return [tx("{name} is choosing: {card}", { name, card }), " ", timeLeft(summary)];
  }
  if (summary.phase === "build") return tx("{name} may build", { name });
  return tx("{name}'s turn", { name });
}

function machiKoroTile(summary) {
  const lines = summary.entries.map((entry) => paidWords(entry, cardName));
  const shown = lines.slice(0, 4);
  if (lines.length > shown.length) shown.push(t("and {n} more", { n: lines.length - shown.length }));
  const sum = diceSum(summary.dice);
  return [
    h("p", { class: "state" }, stateLine(summary)),
    summary.dice.length ? h("p", { class: "rolled" }, tx("Rolled {sum}", { sum: num(sum) })) : null,
    seatList(summary),
    h("ul", { class: "paid" }, shown.map((line) => h("li", {}, line))),
  ];
}

// Tiles draw what a table's summary says; other rulesets (Catan, ...) add a drawing here, and
// until they do, the base game's tile shows their seats and coins.
const tileDrawings = {
  "machi-koro": machiKoroTile,
  "machi-koro-coop": (summary) => coopTile(summary, { cardName, seatList, stateLine, landmarkCount }),
};

function tile(summary) {
  const draw = tileDrawings[summary.ruleset] ?? machiKoroTile;
  return h("li", { class: `tile status-${summary.status}`, "data-table": summary.id, "data-ruleset": summary.ruleset },
    h("h3", {}, bdi(summary.name), summary.turn ? h("span", { class: "turn" }, t("Turn {n}", { n: summary.turn })) : null),
    draw(summary));
}

// Only the tiles of the page on show are in the document: a hall of 275 tables kept all of
// them (33,000 nodes), which cost the projector's laptop about 190 ms per view.
function drawTiles() {
  const list = $("tiles");
  const tables = view.tables;
  list.classList.toggle("dense", tables.length > 8);
  const perPage = tilesThatFit(list, tables);
  const pages = Math.max(1, Math.ceil(tables.length / perPage)); // one, if empty: page % 0 is NaN
  page %= pages;
  if (page > 0) fill(list, tables.slice(page * perPage, (page + 1) * perPage).map(tile));
  tickTimers();
  if (pages === 1) {
    $("tables-page").textContent = "";
    return;
  }
  const first = page * perPage + 1;
  $("tables-page").textContent = t("{first}–{last} of {total}", {
    first, last: Math.min(tables.length, first + perPage - 1), total: tables.length,
  });
}

// Draws the first tiles until one would not fit (that one is taken away again) and says how
// many fit: the first page's tiles set the page size, at least one.
function tilesThatFit(list, tables) {
  fill(list);
  const bottom = list.getBoundingClientRect().bottom;
  for (const [i, summary] of tables.entries()) {
    const element = list.appendChild(tile(summary));
    if (element.getBoundingClientRect().bottom > bottom + 1) {
      if (i > 0) element.remove();
      return Math.max(1, i);
    }
  }
  return Math.max(1, tables.length);
}

// One tile drawn again in place (a co-op assessor's next step) when it is on the page shown.
function redrawTile(id) {
  const old = [...$("tiles").children].find((element) => element.dataset.table === String(id));
  const summary = view.tables.find((s) => s.id === id);
  if (old && summary) old.replaceWith(tile(summary));
}

setInterval(() => {
  if (view && $("tables-page").textContent) {
    page += 1;
    drawTiles();
  }
}, PAGE_SECONDS * 1000);

function tickTimers() {
  const now = performance.now() / 1000;
  for (const element of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Math.ceil(Number(element.dataset.deadline) - now));
    element.textContent = t("{seconds} s", { seconds: left });
  }
}
setInterval(tickTimers, 1000);

// ------------------------------------------------------------------ standings

function drawStandings() {
  const everyone = view.tables.flatMap((summary) => summary.players.map((player) => ({ ...player, table: summary.name })));
  everyone.sort((a, b) => b.landmarks.length - a.landmarks.length || (b.coins ?? 0) - (a.coins ?? 0));
  fill($("standings"), everyone.slice(0, 10).map((player) => h("li", {},
    h("span", { class: "name" }, bdi(player.name)), h("span", { class: "where" }, bdi(player.table)),
    stars(player), h("span", { class: "coins" }, num(player.coins ?? "–")))));
}

receive(data.view);
