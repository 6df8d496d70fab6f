// "Where do I sit?" on a phone: the seating of the round being played (or the next) searched
// by a part of the name as it is typed; the standings below. The view is fetched again now
// and then, so a phone left open shows the next round when it is seated.

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { data, refresh, stageLine } from "./tournament-common.js";

let view = data();
const fold = (text) => text.normalize("NFKC").toLocaleLowerCase();

function seats(query) {
  const wanted = fold(query.trim().replace(/\s+/g, " "));
  if (!wanted || !view.seating) return [];
  const found = [];
  for (const table of view.seating.tables) {
    table.players.forEach((name, index) => {
      if (fold(name).includes(wanted)) found.push({ name, table, position: index + 1 });
    });
  }
  return found;
}

function drawFound() {
  const query = $("name").value;
  const found = seats(query);
  if (!query.trim()) {
    $("found").replaceChildren();
    return;
  }
  if (!view.seating) {
    $("found").replaceChildren(h("li", { class: "none" }, stageLine(view)));
    return;
  }
  if (!found.length) {
    $("found").replaceChildren(h("li", { class: "none" }, t("No player of this round has that name.")));
    return;
  }
  $("found").replaceChildren(...found.slice(0, 20).map((seat) => h("li", { class: "seat" },
    h("strong", { class: "who" }, h("bdi", {}, seat.name)),
    h("span", { class: "where" }, t("Table:"), " ", h("bdi", {}, seat.table.name)),
    h("span", { class: "order" }, t("You play number {n} of {count}",
      { n: seat.position, count: seat.table.players.length })),
    h("span", { class: "with" }, t("With:"), " ",
      h("bdi", {}, seat.table.players.filter((name) => name !== seat.name).join(", "))))));
}

function drawStandings() {
  $("standings").replaceChildren(...view.standings.map((line) => h("li", {},
    h("bdi", {}, line.name), " ",
    h("span", { class: "figures" }, t("{wins} wins · {points} points", { wins: line.wins, points: line.points })))));
}

function draw() {
  $("round-line").textContent = stageLine(view);
  drawFound();
  drawStandings();
}

// Opened by a player's link (`/t/TOKEN`): the page knows its player and waits, over Socket.IO,
// for their next round's `moved` (sent at once when a round is already on), then goes to the
// seat by the player link; only a path of this server is followed.
function followPlayer() {
  const tokenData = document.getElementById("player-token");
  if (!tokenData || typeof io !== "function") return;
  const socket = io({ auth: { player: JSON.parse(tokenData.textContent) }, reconnectionDelayMax: 3000,
    transports: ["websocket", "polling"], tryAllTransports: true });
  socket.on("moved", (message) => {
    const path = message?.join;
    if (typeof path === "string" && path.startsWith("/") && !path.startsWith("//")) window.location.assign(path);
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !socket.connected) socket.connect();
  });
}

followPlayer();
$("name").addEventListener("input", drawFound);
$("search").addEventListener("submit", (event) => event.preventDefault());
draw();
setInterval(async () => {
  try {
    view = await refresh(view.event.id);
    draw();
  } catch {
    // offline for a moment: the page keeps what it shows
  }
}, 20000);
