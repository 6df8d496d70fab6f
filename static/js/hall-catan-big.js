// The big Catan event's hall screen (templates/hall/screens/catan-big.html): draws the `hall`
// view (docs/api.md) of an event whose tables are catan-big boards. Read only, nothing to click,
// nothing decided here: the team on turn as a sun or a moon with its word, the turn and the roll,
// the countdown and the phase, the discard check and the robbers' instruction, the claims being
// verified, the totals against fair dice, and at the end the winner and the standings. Nothing
// is told by colour alone: every state has its word or its shape.

import { t } from "./i18n.js";
import { $, bdi, diceSum, die, fill, followConnection, h, num, reducedMotion, tx } from "./dom.js";
import { announcements, decidedWords, teamSymbol, teamWord, trophy } from "./catan-big-marks.js";
import { chart, svg, twoDiceChance } from "./hall-chart.js";

const RULESET = "catan-big";
const data = JSON.parse($("page-data").textContent);
// The server's clock minus this one's: a turn's deadline is the server's epoch ms, and the
// projector may be another laptop whose clock is off (pages.hall sends now_ms with the page).
const skew = Number.isFinite(data.now_ms) ? data.now_ms - Date.now() : 0;
const serverNow = () => Date.now() + skew;
// A turn starts with production (the other team hands out the resources, no trading until
// done), then trade and build until the time is up. The production's seconds are the schedule's
// (`turn.production_seconds`, 0 once the staff ended it early), counted from the deadline and
// the turn's seconds (time paused does not count), so every screen shows the same phase at the
// same moment.
const SOON_MS = 10_000; // the last seconds of a turn are shown bigger

let view = null;

// ------------------------------------------------------------------ connection

const socket = io({ auth: { hall: data.event }, reconnectionDelayMax: 3000 });
followConnection(socket, $("connection"));
socket.on("hall", (next) => receive(next));

// A projector should not fall asleep (only where the browser allows it: secure contexts).
if (navigator.wakeLock) navigator.wakeLock.request("screen").catch(() => {});

function receive(next) {
  const before = view?.turn?.number ?? null;
  view = next;
  const turn = view.turn;
  const fresh = before !== null && turn !== null && turn.number !== before;
  draw(fresh);
  if (fresh || (before === null && turn && !announced)) announce();
}

// ------------------------------------------------------------------ the view's parts

const game = () => view.games?.[RULESET] ?? { claims: [], verified: [], over: false, winner: null };
const rules = () => view.turn?.rules?.[RULESET] ?? null;
const isOver = () => Boolean(game().over || view.turn?.over || view.turn?.ended || view.event.over || view.event.ended);
const tableName = (id) => view.tables.find((table) => String(table.id) === String(id))?.name ?? "";
// Where a player sits: the table's name and its printed board, "Board 12 (B)".
const where = (seat) => tx("{table} ({letter})", { table: bdi(tableName(seat.table)), letter: seat.board });

function draw(fresh) {
  const turn = view.turn;
  const state = isOver() ? "over" : turn ? "playing" : "waiting";
  $("catan-screen").dataset.state = state;
  $("turn-number").textContent = turn ? t("Turn {n}", { n: turn.number }) : "";
  $("join").hidden = state !== "waiting";
  $("result").hidden = state !== "over";
  drawTeam();
  drawRoll(fresh);
  tick();
  drawNotices();
  drawHistogram();
  drawClaims();
  if (state === "over") drawResult();
}

// ------------------------------------------------------------------ the team

function drawTeam() {
  const turn = view.turn;
  const team = rules()?.team ?? "sun"; // turn 1 is the Sun team's
  const box = $("team");
  box.dataset.team = team;
  fill(box,
    teamSymbol(team),
    h("p", { class: "team-word" }, teamWord(team)),
    h("p", { class: "team-note" }, turn ? t("on turn") : t("The Sun team plays first.")));
}

// ------------------------------------------------------------------ the roll

function drawRoll(fresh) {
  const turn = view.turn;
  const box = $("roll");
  if (!turn) {
    fill(box, h("p", { class: "roll-waiting" }, t("Waiting for the first roll")));
    return;
  }
  const [d1, d2] = turn.dice;
  const animate = fresh && !reducedMotion() ? " fresh" : "";
  fill(box,
    h("p", { class: "roll-label" }, t("Rolled")),
    h("p", { class: `total${animate}`, "aria-label": t("total {sum}", { sum: d1 + d2 }) }, num(d1 + d2)),
    h("div", { class: "roll-dice" }, die(d1, "big"), die(d2, "big")));
}

// ------------------------------------------------------------------ the clock and the phase

// The turn's time as the view says it: running (the deadline), paused (the time left), none
// (no schedule), or over.
function clockNow() {
  const turn = view.turn;
  if (!turn) return { kind: "waiting" };
  if (isOver()) return { kind: "over" };
  const total = Number.isInteger(turn.seconds) ? turn.seconds * 1000 : null;
  if (turn.paused) return { kind: "paused", left: turn.remaining_ms ?? null, total };
  if (turn.deadline_ms === null || turn.deadline_ms === undefined) return { kind: "none", left: null, total };
  return { kind: "running", left: Math.max(0, turn.deadline_ms - serverNow()), total };
}

const clockText = (ms) => {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

// Which step of the turn it is: production for the schedule's first seconds (until the staff
// end it), then trade and build; null when the screen cannot tell (no schedule).
function phaseNow(clock) {
  if (clock.left === null || clock.left === undefined || clock.total === null) return null;
  const production = 1000 * (view.turn?.production_seconds ?? 0);
  return clock.total - clock.left < production ? "production" : "build";
}

let shownClock = "";
function tick() {
  if (!view) return;
  const clock = clockNow();
  const box = $("clock");
  const words = {
    waiting: [view.event.schedule?.length ? t("Turn time") : t("No time limit")],
    over: [t("The game is over.")], none: [t("No time limit")],
    paused: [pauseMark(), t("Paused")], running: [clock.left > 0 ? t("Time left") : t("Time is up.")],
  }[clock.kind];
  const time = clock.left === null || clock.left === undefined ? "" : clockText(clock.left);
  const soon = clock.kind === "running" && clock.left <= SOON_MS;
  const key = `${clock.kind}|${time}|${soon}`;
  if (key !== shownClock) {
    shownClock = key;
    box.dataset.kind = clock.kind;
    box.classList.toggle("soon", soon);
    fill(box, h("p", { class: "clock-label" }, words), time ? h("p", { class: "clock-time" }, num(time)) : null);
  }
  drawPhases(clock);
  drawClockNote(clock);
}
setInterval(tick, 250);

const pauseMark = () => svg("svg", { class: "pause-mark", viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
  svg("rect", { x: 3, y: 2, width: 5, height: 16 }), svg("rect", { x: 12, y: 2, width: 5, height: 16 }));

let shownPhases = "";
function drawPhases(clock) {
  const now = ["running", "paused"].includes(clock.kind) ? phaseNow(clock) : null;
  const list = $("phases");
  list.hidden = clock.kind === "waiting" || clock.kind === "over";
  if (now === shownPhases) return;
  shownPhases = now;
  const steps = [["production", t("Production")], ["build", t("Trade and build")]];
  const at = steps.findIndex(([id]) => id === now);
  fill(list, steps.map(([id, label], i) => {
    const state = at < 0 ? "" : i < at ? "done" : i === at ? "now" : "later";
    let mark = null;
    if (state === "done") mark = h("span", { class: "mark", "aria-hidden": "true" }, "✓");
    if (state === "now") mark = h("span", { class: "mark", "aria-hidden": "true" }, "●");
    return h("li", { class: state, "data-phase": id, "aria-current": state === "now" ? "step" : null },
      mark, h("span", { class: "step" }, label),
      state === "now" ? h("span", { class: "visually-hidden" }, ` (${t("now")})`) : null);
  }));
}

function drawClockNote(clock) {
  const turn = view.turn;
  let text = "";
  if (clock.kind === "paused") text = t("The clock is paused: the staff resume it.");
  else if (turn && clock.kind !== "over") {
    const parts = [];
    if (Number.isInteger(turn.seconds)) parts.push(t("{seconds} s a turn", { seconds: turn.seconds }));
    if (turn.production_ended) parts.push(t("The staff ended the production: trade."));
    // A claim being checked holds the turn (RULES.md 23): no roll, the timer's or the staff's.
    if (game().claims?.length) parts.push(t("The next roll waits for the claims to be checked."));
    else parts.push(turn.auto_roll && turn.deadline_ms ? t("The hall rolls when the time is up.") : t("The staff roll the next turn."));
    text = parts.join(" · ");
  } else if (!turn) {
    text = scheduleWords(view.event.schedule);
  }
  const note = $("clock-note");
  if (note.textContent !== text) note.textContent = text;
}

// "60 s a turn from turn 1, 90 s from turn 11": the schedule before the first roll.
function scheduleWords(schedule) {
  if (!schedule || !schedule.length) return "";
  return schedule.map(([first, seconds], i) => (i === 0
    ? t("{seconds} s a turn from turn {first}", { seconds, first })
    : t("{seconds} s from turn {first}", { seconds, first }))).join(", ");
}

// ------------------------------------------------------------------ the announcements

// The turn's announcements, and a verified claim that ends the game with this turn.
function notices() {
  const turn = view.turn;
  if (!turn || isOver()) return [];
  const found = announcements(rules(), turn);
  if (game().ending) {
    found.push({ kind: "ending", title: t("Victory verified"), text: t("A claim is verified: the game ends with this turn."), dice: [] });
  }
  return found;
}

// Announcements take the chart's place while they stand (the chart can wait, they cannot).
function drawNotices() {
  const found = notices();
  $("catan-screen").dataset.notices = String(found.length);
  fill($("notices"), found.map((notice) => h("div", { class: `catan-notice ${notice.kind}`, "data-kind": notice.kind },
    h("p", { class: "notice-title" }, notice.title),
    h("p", { class: "notice-text" }, notice.text),
    notice.dice.length ? h("div", { class: "notice-dice" }, notice.dice.map((d) => die(d, "mid"))) : null)));
}

// A new turn in words for screen readers: the roll, the team, the announcements.
let announced = false;
function announce() {
  const turn = view.turn;
  if (!turn) return;
  announced = true;
  const parts = [t("Turn {n}: {sum} rolled.", { n: turn.number, sum: diceSum(turn.dice) })];
  if (rules()) parts.push(teamWord(rules().team));
  for (const notice of notices()) parts.push(notice.text);
  $("announce").textContent = parts.join(" ");
}

// ------------------------------------------------------------------ the totals so far

function drawHistogram() {
  const sums = view.rolls.map(diceSum);
  fill($("histogram"),
    h("div", { class: "charts" }, chart({
      kind: "totals", id: "totals", values: sums, low: 2, high: 12, chance: twoDiceChance, height: 200,
      words: (n, counts) => t("{n} rolls; by total: {counts}. The line is what fair dice give on average.", { n, counts }),
    })),
    h("p", { class: "legend" }, h("span", { class: "key bar" }), t("rolled"), " ",
      h("span", { class: "key expected" }), t("expected with fair dice")));
}

// ------------------------------------------------------------------ the claims

// The claims the staff are checking (oldest first), then the verified ones; as many as fit.
function drawClaims() {
  const { claims = [], verified = [] } = game();
  const rows = [...verified.map((c) => claimRow(c, "verified")), ...claims.map((c) => claimRow(c, "pending"))];
  const list = fill($("claims"), rows);
  $("no-claims").hidden = rows.length > 0;
  const dropped = dropRowsBelow(list, list.closest("section"), 1);
  if (dropped) list.append(h("li", { class: "more" }, t("and {n} more", { n: dropped })));
}

function claimRow(claim, status) {
  const word = status === "verified" ? t("verified") : t("being checked");
  const mark = status === "verified" ? "✓" : "…";
  return h("li", { class: `claim ${status}`, "data-status": status },
    teamSymbol(claim.role, "team-mark"),
    h("span", { class: "name" }, bdi(claim.name)),
    h("span", { class: "points" }, tx("{points} points", { points: num(claim.points) })),
    h("span", { class: "detail" },
      h("span", { class: "status" }, h("span", { "aria-hidden": "true" }, mark, " "), word),
      h("span", { class: "where" }, where(claim), " · ", teamWord(claim.role))));
}

// Whole rows only: the rows below the box's bottom go, and one more when `spare` lines must
// fit after the last (an "and 3 more"), but never the first; answers how many went.
function dropRowsBelow(list, box, spare = 0) {
  const bottom = box.getBoundingClientRect().bottom;
  const lineHeight = spare ? list.firstElementChild?.getBoundingClientRect().height ?? 0 : 0;
  let dropped = 0;
  const overflows = (room) => list.children.length > 1 && list.lastElementChild.getBoundingClientRect().bottom + room > bottom + 1;
  while (overflows(0)) {
    list.lastElementChild.remove();
    dropped += 1;
  }
  if (dropped && overflows(Math.min(lineHeight, 40) * spare)) {
    list.lastElementChild.remove();
    dropped += 1;
  }
  return dropped;
}

// ------------------------------------------------------------------ the end

function drawResult() {
  const { winner, standings = [] } = game();
  const box = $("winner");
  if (winner) {
    const why = decidedWords(winner.decided_by);
    fill(box, h("div", { class: "winner-banner", role: "status" }, trophy(),
      h("div", {},
        h("p", { class: "headline" }, tx("{name} won!", { name: bdi(winner.name) })),
        h("p", { class: "winner-where" }, teamSymbol(winner.role, "team-mark"),
          tx("{points} points", { points: num(winner.points) }), " · ",
          where(winner), " · ", teamWord(winner.role)),
        h("p", { class: "decided" }, tx("Decided by: {what}", { what: why })))));
  } else {
    fill(box, h("div", { class: "winner-banner none", role: "status" },
      h("div", {}, h("p", { class: "headline" }, t("The event has ended.")),
        h("p", { class: "decided" }, t("No claim of victory was verified.")))));
  }
  const body = fill($("standings"), standings.map(standingRow));
  const dropped = dropRowsBelow(body, $("result"), 1);
  $("standings-more").textContent = dropped ? t("and {n} more", { n: dropped }) : "";
}

function standingRow(row) {
  const checked = row.corrected ? t("corrected by the staff") : row.verified ? t("verified") : t("not verified");
  return h("tr", { class: row.place === 1 && game().winner ? "first" : "" },
    h("td", { class: "place" }, num(row.place)),
    h("td", { class: "name" }, bdi(row.name)),
    h("td", {}, where(row)),
    h("td", { class: "team" }, h("span", {}, teamSymbol(row.role, "team-mark"), teamWord(row.role))),
    h("td", { class: "points" }, num(row.points)),
    h("td", { class: row.verified ? "checked yes" : "checked no" }, h("span", { "aria-hidden": "true" }, row.verified ? "✓ " : "? "), checked));
}

receive(data.view);
