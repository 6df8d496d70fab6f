// The projector between rounds: the standings and the seating of the round being played or
// the next, each paged to what fits the screen, pages turning every few seconds; a countdown
// when the round has a time. The view is fetched again every few seconds.

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { data, refresh, roundName, stageLine } from "./tournament-common.js";

const PAGE_SECONDS = 12;
let view = data();
let page = 0;
let skew = Date.now() / 1000 - view.now; // the laptop's clock against the server's

function pages(items, perPage) {
  const count = Math.max(1, Math.ceil(items.length / perPage));
  const index = page % count;
  return { items: items.slice(index * perPage, (index + 1) * perPage), index, count };
}

function pageNote(element, shown) {
  element.textContent = shown.count > 1 ? t("page {page} of {pages}", { page: shown.index + 1, pages: shown.count }) : "";
}

function rowsThatFit(rowVh) {
  const free = window.innerHeight * 0.78;
  return Math.max(1, Math.floor(free / (window.innerHeight * rowVh / 100)));
}

function drawStandings() {
  const lines = view.ranking
    ? view.ranking.map((r) => ({ rank: r.rank, name: r.name, final: true }))
    : view.standings;
  const shown = pages(lines, rowsThatFit(5.2));
  pageNote($("standings-page"), shown);
  $("standings").replaceChildren(...shown.items.map((line) => h("tr", { class: line.dropped ? "dropped" : null },
    h("td", {}, String(line.rank)), h("td", { class: "name" }, h("bdi", {}, line.name)),
    h("td", {}, line.final ? "" : String(line.wins)), h("td", {}, line.final ? "" : line.points),
    h("td", {}, line.final ? "" : String(line.landmarks)), h("td", {}, line.final ? "" : String(line.coins)))));
}

function drawSeating() {
  const seating = view.seating;
  $("seating-heading").textContent = seating
    ? t("Seating: {round}", { round: roundName(seating.round, seating.stage) }) : t("Seating");
  const tables = seating ? seating.tables : [];
  const perPage = Math.max(1, Math.floor(window.innerWidth > window.innerHeight * 1.5 ? 8 : 6));
  const shown = pages(tables, perPage);
  pageNote($("seating-page"), shown);
  $("seating").replaceChildren(...shown.items.map((table) => h("li", { class: "ttable" },
    h("h3", {}, h("bdi", {}, table.name)),
    h("ol", {}, table.players.map((name, index) => h("li", {},
      h("span", { class: "pos" }, String(index + 1)), " ", h("bdi", {}, name)))))));
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

function draw() {
  $("stage").textContent = stageLine(view);
  drawStandings();
  drawSeating();
  drawClock();
}

draw();
setInterval(drawClock, 1000);
setInterval(() => {
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
