// The tournament's projector: the standings and the seating of the round being played or the
// next, each paged to what fits the screen (measured, as the hall's tiles are), pages turning
// every few seconds; a countdown when the round has a time. What shows depends on the stage:
// before any round is closed the seating (or, at registration, the players) alone; a round too
// big for two pages of tables is listed by name (name and table, alphabetical), across the
// whole screen while it is played; at the end the winner and the tournament's ranking, still.
// The view is fetched again every few seconds.

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { data, refresh, roundName, stageLine } from "./tournament-common.js";

const PAGE_SECONDS = 12;
const STAGE_WORDS = { final: () => t("Final"), "semi-final": () => t("Semi-finals") };
let view = data();
let page = 0;
let skew = Date.now() / 1000 - view.now; // the laptop's clock against the server's
const collator = new Intl.Collator(document.documentElement.lang || undefined, { sensitivity: "base" });

// How many of `items` fit in `box` (its bottom): drawn one by one until one would not fit, at
// least one; the box is left empty.
function fitting(box, items, make, holder = box) {
  holder.replaceChildren();
  const bottom = box.getBoundingClientRect().bottom;
  let count = items.length;
  for (const [i, item] of items.entries()) {
    const element = holder.appendChild(make(item));
    if (element.getBoundingClientRect().bottom > bottom + 1) {
      count = Math.max(1, i);
      break;
    }
  }
  holder.replaceChildren();
  return Math.max(1, count);
}

function paged(items, perPage, turning = true) {
  const count = Math.max(1, Math.ceil(items.length / perPage));
  const index = turning ? page % count : 0;
  return { items: items.slice(index * perPage, (index + 1) * perPage), index, count };
}

function pageNote(element, shown, range = "") {
  const words = shown.count > 1 ? [t("page {page} of {pages}", { page: shown.index + 1, pages: shown.count })] : [];
  if (range && shown.count > 1) words.push(range);
  element.textContent = words.join(" · ");
}

// ------------------------------------------------------------------ standings and ranking

function standingRow(line) {
  const figures = line.figures ?? line;
  const name = [h("bdi", {}, line.name)];
  if (line.stage && STAGE_WORDS[line.stage]) name.push(" ", h("span", { class: "reached" }, STAGE_WORDS[line.stage]()));
  return h("tr", { class: line.dropped ? "dropped" : null },
    h("td", {}, String(line.rank)), h("td", { class: "name" }, ...name),
    h("td", {}, String(figures.wins ?? "")), h("td", {}, String(figures.points ?? "")),
    h("td", {}, String(figures.landmarks ?? "")), h("td", {}, String(figures.coins ?? "")));
}

// At the end: the tournament's ranking (the final's places first, RULES.md 28) with each
// player's figures over the preliminaries.
function rankingLines() {
  const figures = new Map(view.standings.map((line) => [line.name, line]));
  return view.ranking.map((r) => ({ ...r, figures: figures.get(r.name) ?? {} }));
}

function drawStandings() {
  const done = Boolean(view.ranking);
  const lines = done ? rankingLines() : view.standings;
  $("standings-heading").textContent = done ? t("Final standings") : t("Standings");
  const body = $("standings");
  const shown = paged(lines, fitting(body.closest(".fit"), lines, standingRow, body), !done);
  if (done) { // the top of the ranking stands; the whole is on paper and on the phones
    $("standings-page").textContent = shown.count > 1
      ? t("the first {count} of {total}", { count: shown.items.length, total: lines.length }) : "";
  } else {
    pageNote($("standings-page"), shown);
  }
  body.replaceChildren(...shown.items.map(standingRow));
}

function drawWinner() {
  const winner = $("winner");
  const first = view.ranking ? view.ranking.filter((r) => r.rank === 1).map((r) => r.name) : [];
  winner.hidden = !first.length;
  const words = first.length > 1 ? t("Shared first place:") : t("Winner:");
  winner.replaceChildren(...(first.length ? [words, " ", h("bdi", {}, first.join(" · "))] : []));
}

// ------------------------------------------------------------------ seating

function tableTile(table) {
  return h("li", { class: "ttable" },
    h("h3", {}, h("bdi", {}, table.name)),
    h("ol", {}, table.players.map((name, index) => h("li", {},
      h("span", { class: "pos" }, String(index + 1)), " ", h("bdi", {}, name)))));
}

function nameEntry(entry) {
  return h("li", { class: "tname" }, h("bdi", { class: "who" }, entry.name),
    entry.table ? h("bdi", { class: "at" }, entry.table) : null);
}

// By name: as many rows as the list's height holds, as many columns as its width; read down.
function drawNames(list, entries) {
  list.className = "tnames";
  list.style.removeProperty("--rows");
  list.replaceChildren(nameEntry(entries[0] ?? { name: "—" }));
  const rowHeight = list.firstChild.getBoundingClientRect().height || 1;
  const columns = getComputedStyle(list).gridTemplateColumns.split(" ").length;
  // the rows that fit, or fewer when all fit: the columns stay even
  const rows = Math.max(1, Math.min(Math.floor(list.getBoundingClientRect().height / rowHeight),
    Math.ceil(entries.length / columns)));
  list.style.setProperty("--rows", String(rows));
  const shown = paged(entries, rows * columns);
  const range = shown.items.length ? `${shown.items[0].name} – ${shown.items.at(-1).name}` : "";
  list.replaceChildren(...shown.items.map(nameEntry));
  return [shown, range];
}

// The round's tables, or by name when its tables would need more than two pages.
function drawSeating(seating) {
  const list = $("seating");
  list.className = "tseating";
  const perPage = fitting(list, seating.tables, tableTile);
  if (Math.ceil(seating.tables.length / perPage) <= 2) {
    const shown = paged(seating.tables, perPage);
    pageNote($("seating-page"), shown);
    list.replaceChildren(...shown.items.map(tableTile));
    return;
  }
  const entries = seating.tables.flatMap((table) => table.players.map((name) => ({ name, table: table.name })))
    .sort((a, b) => collator.compare(a.name, b.name));
  const [shown, range] = drawNames(list, entries);
  pageNote($("seating-page"), shown, range);
}

// Before the seating: the players registered, by name.
function drawPlayers() {
  const names = view.standings.filter((line) => !line.dropped).map((line) => ({ name: line.name }))
    .sort((a, b) => collator.compare(a.name, b.name));
  const [shown, range] = drawNames($("seating"), names);
  pageNote($("seating-page"), shown, range);
}

// Too big for two pages of tables at half the screen: the round is listed by name.
function isBig(seating) {
  const list = $("seating");
  list.className = "tseating";
  return Math.ceil(seating.tables.length / fitting(list, seating.tables, tableTile)) > 2;
}

// ------------------------------------------------------------------ the page

function layout() {
  const grid = $("tscreen-grid");
  const done = Boolean(view.ranking);
  const closed = view.standings.some((line) => line.tables > 0);
  const seating = done ? null : view.seating;
  let shows = "both";
  if (done || (closed && !seating)) shows = "standings";
  else if (!closed) shows = "seating";
  grid.dataset.shows = shows;
  if (shows === "both" && seating.open && isBig(seating)) grid.dataset.shows = shows = "seating";
  $("standings-section").hidden = shows === "seating";
  $("seating-section").hidden = shows === "standings";
  return seating;
}

function draw() {
  $("stage").textContent = stageLine(view);
  drawWinner();
  const seating = layout();
  if (!$("standings-section").hidden) drawStandings();
  if (!$("seating-section").hidden) {
    $("seating-heading").textContent = seating
      ? t("Seating: {round}", { round: roundName(seating.round, seating.stage) })
      : t("Players ({count})", { count: view.standings.filter((line) => !line.dropped).length });
    if (seating) drawSeating(seating);
    else drawPlayers();
  }
  drawClock();
}

function drawClock() {
  const current = view.current;
  const clock = $("clock");
  if (!current || !current.open || !current.ends_at) {
    clock.textContent = "";
    return;
  }
  const left = Math.round(current.ends_at - (Date.now() / 1000 - skew));
  if (left <= 0) {
    clock.textContent = t("Time is up");
    clock.dataset.state = "over";
    return;
  }
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  clock.textContent = t("Time left: {time}", { time: `${minutes}:${seconds}` });
  clock.dataset.state = left < 300 ? "late" : "on";
}

draw();
setInterval(drawClock, 1000);
setInterval(() => {
  if (view.ranking) return; // the end: the ranking stands still
  page += 1;
  draw();
}, PAGE_SECONDS * 1000);
setInterval(async () => {
  try {
    view = await refresh(view.event.id);
    skew = Date.now() / 1000 - view.now;
    draw();
  } catch {
    // the next refresh tries again; the screen keeps what it shows
  }
}, 5000);
window.addEventListener("resize", draw);
