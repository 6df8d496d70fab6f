// The hall projector: draws the `hall` view (docs/api.md) of one event. Read only, nothing to
// click: the last hall roll as the tables use it (the first die, the total), a tile per table,
// the standings with the winners first, charts of the hall's rolls against fair dice. The view
// embedded in the page draws at once.

import { t } from "./i18n.js";
import {
  $, bdi, diceSum, die, fill, followConnection, h, num, paidWords, reducedMotion, rollWords, signed, tx,
} from "./dom.js";
import { coopTile, followAssessor } from "./hall-coop.js";
import { chart, svg, tally, twoDiceChance } from "./hall-chart.js";
import { legacyTile } from "./hall-legacy.js";

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
  noteWins();
  followAssessor(view.tables, { first, delay: rolled && !reducedMotion() ? TUMBLE_MS : 0 }, redrawTile);
  drawRoll(rolled);
  drawHistogram();
  drawTiles();
  drawStandings();
}

// ------------------------------------------------------------------ the roll

// Every table rolls with the hall's two dice: one that rolls one die takes the first, one with a
// Train Station that chose two takes the total. Each gets its own row, the first die's on top:
// a table reads its number from where it always is.
function drawRoll(animate) {
  const rolls = view.rolls;
  // no hall roll to wait for when every table rolls its own dice (a Legacy game, own-roll tables)
  const hallRolls = view.tables.some((summary) => summary.roll_mode === "hall" && summary.status !== "ended");
  $("roll-number").textContent = rolls.length ? t("Roll {n}", { n: rolls.length })
    : hallRolls || !view.tables.length ? t("Waiting for the first roll") : t("Each table rolls its own dice");
  document.querySelector(".histogram").hidden = !rolls.length && !hallRolls && view.tables.length > 0;
  const box = $("dice");
  if (!rolls.length) {
    fill(box);
    return;
  }
  const [d1, d2] = rolls[rolls.length - 1];
  const use = diceUse(d1, d2);
  const final = () => {
    fill(box, diceRows(use, [die(d1, "big")], num(d1), [die(d1, "big"), die(d2, "big")], tx("= {sum}", { sum: num(d1 + d2) })));
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
    const face = () => die(1 + Math.floor(Math.random() * 6), "big rolling");
    fill(box, diceRows(use, [face()], "…", [face(), face()], t("= {sum}", { sum: "…" })));
  }, 85);
}

// How many hall tables took the last roll with one die and with two: a table's summary holds
// the dice it rolled, the first die alone or both.
function diceUse(d1, d2) {
  const use = { one: 0, two: 0 };
  for (const summary of view.tables) {
    if (summary.roll_mode !== "hall" || summary.status !== "running" || summary.phase === "finished") continue;
    const [first, second] = summary.dice;
    if (first !== d1) continue; // it has not rolled with the hall yet (or rolled again)
    if (summary.dice.length === 1) use.one += 1;
    else if (second === d2) use.two += 1;
  }
  return use;
}

// The two rows; a row no table used this roll stays, smaller, so nobody takes its number for
// theirs. Before any table has rolled with the hall, both are drawn alike, without counts.
function diceRows(use, oneFaces, oneNumber, twoFaces, sum) {
  const anyone = use.one + use.two > 0;
  return [
    diceRow("one", t("One die"), anyone ? use.one : null, oneFaces, h("span", { class: "number" }, oneNumber)),
    diceRow("two", t("Two dice"), anyone ? use.two : null, twoFaces, h("span", { class: "sum" }, sum)),
  ];
}

function diceRow(kind, label, tables, faces, result) {
  let count = null;
  if (tables !== null) count = tables === 1 ? t("1 table") : tables ? tx("{n} tables", { n: num(tables) }) : t("no table");
  return h("div", { class: `dice-row ${kind}${tables === 0 ? " unused" : ""}` },
    h("p", { class: "dice-label" }, label, count ? [" · ", count] : null),
    h("div", { class: "dice-show" }, faces, result));
}

// ------------------------------------------------------------------ histogram

// Two charts of the hall's rolls, the numbers the tables use: the first die (one-die tables)
// and the total (two-dice tables), each against what fair dice give. Tables move from one die
// to two during a game, and a table that doubts the dice asks about its own number.
function drawHistogram() {
  const total = view.rolls.length;
  const firsts = view.rolls.map(([d1]) => d1);
  const sums = view.rolls.map(([d1, d2]) => d1 + d2);
  const top = Math.max(1, total / 6, ...tally(firsts).values(), ...tally(sums).values()); // one scale for both
  fill($("histogram"),
    h("div", { class: "charts" },
      chart({ kind: "first", id: "histogram-first", title: t("One die"), values: firsts, low: 1, high: 6, top,
        chance: () => 1 / 6,
        words: (n, counts) => t("{n} rolls; by the first die: {counts}. The line is what a fair die gives on average.", { n, counts }) }),
      chart({ kind: "totals", id: "histogram", title: t("Two dice"), values: sums, low: 2, high: 12, top,
        chance: twoDiceChance,
        words: (n, counts) => t("{n} rolls; by total: {counts}. The line is what fair dice give on average.", { n, counts }) })),
    h("p", { class: "legend" }, h("span", { class: "key bar" }), t("rolled"), " ",
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
  }, h("span", { class: "name" }, bdi(player.name)),
  h("span", { class: "figures" }, placeMark(player), stars(player), h("span", { class: "coins" }, num(player.coins ?? "–"))))));
}

// Play on after a win (RULES.md 14): the place a finished player took.
function placeMark(player) {
  return Number.isInteger(player.place) ? h("span", { class: "place" }, tx("Place {n}", { n: num(player.place) })) : null;
}

// The variable supply (RULES.md 13): each face-up pile's count and, like Yucata, how many of
// its kind are still in the draw pile, "(n)".
function marketLine(summary) {
  const market = summary.market;
  if (!market) return null;
  const piles = Object.entries(market.supply).filter(([, n]) => n > 0).map(([card, n]) => h("li", { "data-card": card },
    cardName(card), " ", num(n), h("span", { class: "draw" }, " (", num(market.draw?.[card] ?? 0), ")")));
  return h("div", { class: "market" }, h("p", { class: "market-note" }, tx("Supply: {n} cards in the draw pile", { n: num(market.draw_left ?? 0) })),
    h("ul", { class: "piles" }, piles));
}

function timeLeft(summary) {
  if (summary.waited === null || summary.waited === undefined) return null;
  const deadline = viewAt / 1000 + view.event.choice_seconds - summary.waited;
  return h("span", { class: "timer", "data-deadline": deadline });
}

// `named`: the tile's names of cards (a Legacy game's own).
function stateLine(summary, named = cardName) {
  const statuses = { setup: t("Not started"), paused: t("Paused"), ended: t("Ended") };
  if (statuses[summary.status]) return statuses[summary.status];
  const name = bdi(summary.active_name ?? "");
  if (summary.waiting) { // `asking`: the card that asks (docs/api.md, "A choice as data")
    return [tx("{name} is choosing: {card}", { name, card: named(summary.asking ?? summary.waiting) }), " ", timeLeft(summary)];
  }
  if (summary.phase === "build") return tx("{name} may build", { name });
  return tx("{name}'s turn", { name });
}

function machiKoroTile(summary) {
  const lines = summary.entries.map((entry) => paidWords(entry, cardName));
  const shown = lines.slice(0, 4);
  if (lines.length > shown.length) shown.push(t("and {n} more", { n: lines.length - shown.length }));
  // what a card added to the hall's dice at this table, and the total that paid: "11 +2 = 13",
  // each number its own (a signed one keeps its sign before it in right-to-left text)
  const dice = diceSum(summary.dice);
  const sum = summary.added
    ? h("span", {}, num(dice), " ", signed(summary.added), " = ", num(dice + summary.added)) : num(dice);
  const won = Number.isInteger(summary.winner);
  return [
    won ? winBanner(summary) : h("p", { class: "state" }, stateLine(summary)),
    summary.dice.length ? h("p", { class: "rolled" }, tx("Rolled {sum}", { sum })) : null,
    seatList(summary),
    h("ul", { class: "paid" }, shown.map((line) => h("li", {}, line))),
    marketLine(summary),
  ];
}

// Tiles draw what a table's summary says; other rulesets (Catan, ...) add a drawing here, and
// until they do, the base game's tile shows their seats and coins.
const tileDrawings = {
  "machi-koro": machiKoroTile,
  "machi-koro-coop": (summary) => coopTile(summary, { cardName, seatList, stateLine, landmarkCount }),
  legacy: (summary) => legacyTile(summary, { stateLine, winBanner }),
};

function tile(summary) {
  const draw = tileDrawings[summary.ruleset] ?? machiKoroTile;
  const { fresh, style } = entrance(summary);
  const won = isWon(summary) ? ` won${fresh}` : "";
  return h("li", { class: `tile status-${summary.status}${won}`, style, "data-table": summary.id, "data-ruleset": summary.ruleset },
    h("h3", {}, bdi(summary.name), summary.turn ? h("span", { class: "turn" }, t("Turn {n}", { n: summary.turn })) : null),
    draw(summary));
}

// Only the tiles of the page on show are in the document: a hall of 275 tables kept all of
// them (33,000 nodes), which cost the projector's laptop about 190 ms per view. Up to 8 tables
// page only when they do not fit a little smaller ("compact"), in two columns, three or four,
// and then with the tables given the width of the charts ("wide": the dice stay, the charts
// go): a page the hall waits 10 s for is worse than smaller text (README: up to eight tables
// shrink to fit). More tables are smaller still ("dense", more columns) and page.
const FEW_TABLES = ["", "compact", "compact three", "compact three wide", "compact four wide", "compact four wide small",
  "compact four wide small smaller"]; // a co-op pair's tall tile last, alone in a third row
function drawTiles() {
  const list = $("tiles");
  const tables = shownTables();
  const perPage = pageSize(list, tables, tables.length > 8 ? ["dense"] : FEW_TABLES);
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

// The first size at which every tile fits, else the one that fits the most (the larger of equals);
// its first page is drawn. Answers how many tiles a page has.
function pageSize(list, tables, sizes) {
  const fits = [];
  for (const size of sizes) {
    useSize(list, size);
    fits.push(tilesThatFit(list, tables));
    if (fits.at(-1) >= tables.length) return fits.at(-1);
  }
  const best = fits.indexOf(Math.max(...fits));
  if (best === sizes.length - 1) return fits[best];
  useSize(list, sizes[best]);
  return tilesThatFit(list, tables);
}

// A size of the tiles; "wide" gives the tables the charts' width (the grid's class).
function useSize(list, size) {
  list.className = `tiles ${size}`.trim();
  list.closest(".hall-grid").classList.toggle("wide-tables", size.split(" ").includes("wide"));
}

// The tables the hall screen shows: all but those ended before they started (a table set up
// by mistake, or whose players went home), which have nothing to show.
function shownTables() {
  return view.tables.filter((summary) => !(summary.status === "ended" && summary.phase === "setup"));
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

// ------------------------------------------------------------------ wins

// Whether a table's game is won: the base game's winner, or a co-op pair that won together.
const isWon = (summary) => (summary.result?.outcomes ?? []).includes("won");
const wonSeat = (summary, seat) => summary.result?.outcomes?.[seat] === "won";

// A win comes in once (app.css win-in), when it comes: not for the wins a projector finds when
// it is switched on, and never again later. Tiles and standings are redrawn often (every view, a
// co-op assessor's step, a page turn): a redraw continues the entrance where it was, by a
// negative delay, rather than start it again, which would blink.
const WIN_MS = 1200;
const winsAt = new Map(); // table id -> when its win came (performance.now() ms)
let wonBefore = null; // the ids of the tables won at the previous view; null before the first
function noteWins() {
  const won = new Set(view.tables.filter(isWon).map((summary) => summary.id));
  for (const id of won) if (wonBefore && !wonBefore.has(id) && !winsAt.has(id)) winsAt.set(id, performance.now());
  wonBefore = won;
}

// The attributes that play a win's entrance, for a win that came less than WIN_MS ago.
function entrance(summary) {
  const since = performance.now() - (winsAt.get(summary.id) ?? -Infinity);
  return since < WIN_MS ? { fresh: " fresh", style: `--since: -${Math.round(since)}ms` } : { fresh: "", style: null };
}

// A cup, drawn: the projector's laptop may have no emoji font.
const trophy = () => svg("svg", { class: "trophy", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
  svg("path", { d: "M6 2h12v5a6 6 0 0 1-12 0z" }),
  svg("path", { d: "M6 4H3.5v2.5A3.5 3.5 0 0 0 7 10M18 4h2.5v2.5A3.5 3.5 0 0 1 17 10", class: "handles" }),
  svg("rect", { x: 11, y: 12, width: 2, height: 5 }),
  svg("rect", { x: 7, y: 17, width: 10, height: 4, rx: 1 }));

// The base game's win, across the top of its tile, big enough for the back of the hall.
function winBanner(summary) {
  return h("div", { class: "win-banner", role: "status" }, trophy(),
    h("p", { class: "headline" }, tx("{name} won!", { name: bdi(summary.players[summary.winner].name) })));
}

// ------------------------------------------------------------------ standings

// Winners first, then landmarks, then coins (as the printed standings rank), within each game:
// the players of different games (a co-op pair, a Legacy table) are not ranked together. One
// game: its top ten; several: a heading and a ranking each, in the order their tables come.
function drawStandings() {
  const games = new Map();
  for (const summary of shownTables()) {
    if (!games.has(summary.ruleset)) games.set(summary.ruleset, []);
    games.get(summary.ruleset).push(...summary.players.map((player) => ({
      ...player, table: summary.name, won: wonSeat(summary, player.seat), entrance: entrance(summary),
    })));
  }
  const ranked = [...games.entries()].map(([ruleset, players]) => [ruleset,
    players.sort((a, b) => b.won - a.won || b.landmarks.length - a.landmarks.length || (b.coins ?? 0) - (a.coins ?? 0))]);
  const box = $("standings");
  if (ranked.length <= 1) {
    box.className = "";
    fill(box, (ranked[0]?.[1] ?? []).slice(0, 10).map(standingsRow));
  } else {
    box.className = "by-game";
    const share = Math.max(3, Math.floor(10 / ranked.length));
    fill(box, ranked.map(([ruleset, players]) => h("li", { class: "game", "data-ruleset": ruleset },
      h("h3", {}, data.rulesets?.[ruleset] ?? ruleset),
      h("ol", {}, players.slice(0, share).map(standingsRow)))));
  }
  dropRowsBelow(box, box.closest("section"));
}

// A row: the name, then the table, the landmarks (or the win) and the coins.
function standingsRow(player) {
  const figures = h("span", { class: "figures" }, h("span", { class: "where" }, bdi(player.table)),
    player.won ? h("span", { class: "won-mark" }, trophy(), t("Winner")) : stars(player),
    h("span", { class: "coins" }, num(player.coins ?? "–")));
  const { fresh, style } = player.won ? player.entrance : { fresh: "", style: null };
  return h("li", { class: player.won ? `won${fresh}` : "", style },
    h("span", { class: "entry" }, h("span", { class: "name" }, bdi(player.name)), figures));
}

// Whole rows only: a long name takes a line of its own, and the rows that no longer fit go
// (by game: the last game's last rows first, and a game left without rows).
function dropRowsBelow(list, box) {
  const bottom = box.getBoundingClientRect().bottom;
  const rows = () => [...list.querySelectorAll(":scope > li:not(.game), :scope > li.game > ol > li")];
  for (let last = rows().at(-1); last && last.getBoundingClientRect().bottom > bottom + 1; last = rows().at(-1)) {
    const game = last.closest("li.game");
    last.remove();
    if (game && !game.querySelector("ol > li")) game.remove();
  }
}

receive(data.view);
