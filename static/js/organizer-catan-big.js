// The big Catan event's part of the console (templates/organizer/parts/catan-big.html): the
// turn's announcement, the claims of victory waiting for the staff (verify with the cards in
// hand, for a tie, or reject with a reason), the verified claims, the winner with what decided
// it, a correction of a player's points, and the standings once the game is over. Everything
// shown is the hall view's (`games["catan-big"]`, docs/api.md); the staff's moves go to
// POST /api/tables/<table_id>/staff_move, and a refusal is said with the server's message.

import { t } from "./i18n.js";
import { $, bdi, diceSum, fill, h, num, tx } from "./dom.js";
import { notice } from "./organizer-api.js";
import { announcements, decidedWords, teamSymbol, teamWord, trophy } from "./catan-big-marks.js";
import { change, eventPath, onView, serverNow } from "./organizer-event.js";

const RULESET = "catan-big";
const RESOURCES = ["grain", "ore", "brick", "wood", "wool"]; // the tie-breaks' order (RULES.md 23)
const resourceName = (kind) => ({
  grain: t("Grain"), ore: t("Ore"), brick: t("Brick"), wood: t("Wood"), wool: t("Wool"),
}[kind]);
// A breakdown's lines and their points each (RULES.md 23); the flags are worth 2 when held.
const FIELDS = [
  ["settlements", () => t("Settlements"), 1],
  ["cities", () => t("Cities"), 2],
  ["foreign_start_settlements", () => t("Settlements in a foreign start area"), 2],
  ["vp_cards", () => t("Victory point cards"), 1],
  ["largest_army", () => t("Largest army"), 2],
  ["longest_road", () => t("Longest road"), 2],
];
const pointsOf = (breakdown) => FIELDS.reduce((total, [key, , each]) => total + each * Number(breakdown[key] ?? 0), 0);

// Refusals of a staff move, in the page's language (the server's message follows).
const STAFF_REFUSALS = {
  "catan/no_claim": t("This player has no claim waiting: it may have been verified or rejected meanwhile."),
  "catan/over_cap": t("A figure is over what the rules allow."),
  "catan/bad_claim": t("These figures are not valid."),
  "catan/invalid": t("The rules do not allow that."),
};

let view = null;
const tableOf = (id) => view.tables.find((table) => String(table.id) === String(id));
const where = (seat) => tx("{table} ({letter})", { table: bdi(tableOf(seat.table)?.name ?? ""), letter: seat.board });
const team = (role) => [teamSymbol(role, "team-mark"), teamWord(role)];

// A notice speaks of the moment it was said: once the turn, the clock's pause or the game's end
// changes, it leaves ("The clock runs again." while paused; a rejection of turn 5 at turn 21).
// The change's own notice comes just before the view it made: a notice said in the last
// seconds stays.
let moment = null;
let saidAt = 0;
const noticeBox = document.getElementById("notice");
if (noticeBox) new MutationObserver(() => { saidAt = Date.now(); }).observe(noticeBox, { childList: true, characterData: true, subtree: true });
function forgetOldNotice() {
  const turn = view?.turn;
  const now = `${view?.event?.id}|${turn?.number}|${turn?.paused}|${turn?.over}|${turn?.ended}`;
  if (moment !== null && now !== moment && Date.now() - saidAt > 2000 && noticeBox && !noticeBox.hidden) notice("");
  moment = now;
}

function draw(next) {
  view = next;
  forgetOldNotice();
  const boards = (view?.tables ?? []).filter((table) => table.ruleset === RULESET);
  $("catan-part").hidden = boards.length === 0;
  if (!boards.length) return;
  const game = view.games?.[RULESET] ?? {};
  drawTurn();
  drawWinner(game);
  $("catan-ending").hidden = !game.ending;
  drawClaims(game.claims ?? []);
  drawVerified(game.verified ?? []);
  drawSeatChoice(boards);
  drawStandings(game);
}

// ------------------------------------------------------------------ the turn

function drawTurn() {
  const turn = view.turn;
  const said = turn?.rules?.[RULESET];
  if (!turn || !said) {
    fill($("catan-turn"), t("No roll yet: the Sun team plays first."));
    fill($("catan-announcements"));
    return;
  }
  const sum = diceSum(turn.dice);
  fill($("catan-turn"), team(said.team), " · ", tx("Turn {n}, rolled {sum}", { n: num(turn.number), sum: num(sum) }));
  drawProduction();
  fill($("catan-announcements"), announcements(said, turn).map((item) => h("li", { "data-kind": item.kind },
    h("strong", {}, item.title), ": ", item.text,
    item.dice.length ? [" ", tx("(dice: {dice})", { dice: num(item.dice.join(", ")) })] : null)));
}

// ------------------------------------------------------------------ production

// The turn opens with production (RULES.md 21): the schedule's seconds, which the staff may end
// early for the whole hall (every screen and phone follows the event's turn).
function productionLeft(turn) {
  if (!turn || turn.over || turn.ended || turn.production_ended || !Number.isInteger(turn.seconds)) return 0;
  const left = turn.paused ? turn.remaining_ms : turn.deadline_ms === null ? null : turn.deadline_ms - serverNow();
  if (left === null || left === undefined) return 0;
  return Math.max(0, 1000 * (turn.production_seconds ?? 0) - (1000 * turn.seconds - left));
}

function drawProduction() {
  const box = $("catan-production");
  const turn = view?.turn;
  const left = productionLeft(turn);
  box.hidden = left <= 0;
  if (box.hidden) return;
  const words = tx("Production: {seconds} s left, no trading yet.", { seconds: num(Math.ceil(left / 1000)) });
  fill($("catan-production-words"), words);
}
setInterval(() => view && drawProduction(), 500);

$("catan-production-end").addEventListener("click", () => change(eventPath("/production/end"), {},
  { done: t("Production has ended: the hall may trade."), at: $("catan-turn") }));

// ------------------------------------------------------------------ the winner

function drawWinner(game) {
  const box = $("catan-winner");
  if (game.winner) {
    const winner = game.winner;
    fill(box, h("div", { class: "catan-winner" }, trophy(), h("div", {},
      h("p", { class: "headline" }, tx("{name} won!", { name: bdi(winner.name) })),
      h("p", {}, tx("{points} points", { points: num(winner.points) }), " · ", where(winner), " · ", team(winner.role)),
      h("p", {}, tx("Decided by: {what}", { what: decidedWords(winner.decided_by) })))));
  } else if (game.over) {
    fill(box, h("div", { class: "catan-winner" }, h("div", {},
      h("p", { class: "headline" }, t("The event has ended.")),
      h("p", {}, t("No claim of victory was verified.")))));
  } else {
    fill(box);
  }
}

// ------------------------------------------------------------------ the claims to verify

// Each claim's card stays while it waits (the staff may be typing the cards in hand): new ones
// are added in their place, settled ones go.
const cards = new Map();

function drawClaims(claims) {
  const list = $("catan-claims");
  const keys = new Set();
  claims.forEach((claim, i) => {
    const key = `${claim.table}-${claim.seat}-${claim.turn}`;
    keys.add(key);
    if (!cards.has(key)) cards.set(key, claimCard(claim, key));
    const card = cards.get(key);
    if (list.children[i] !== card) list.insertBefore(card, list.children[i] ?? null);
  });
  for (const [key, card] of cards) {
    if (!keys.has(key)) {
      card.remove();
      cards.delete(key);
    }
  }
  $("catan-no-claims").hidden = claims.length > 0;
  $("catan-claims-count").textContent = claims.length ? `(${claims.length})` : "";
}

function claimCard(claim, key) {
  const id = `claim-${key}`;
  const hand = RESOURCES.map((kind) => h("label", { for: `${id}-${kind}` }, resourceName(kind),
    h("input", { id: `${id}-${kind}`, name: kind, type: "number", min: 0, step: 1, value: 0, required: true, inputmode: "numeric" })));
  const total = h("p", { class: "hand-total", "aria-live": "polite" }, tx("Cards in hand: {n}", { n: num(0) }));
  const verify = h("form", { class: "verify-form", "data-key": key },
    h("fieldset", {}, h("legend", {}, t("Cards in hand, for a tie")), h("div", { class: "hand-fields" }, hand), total),
    h("button", { type: "submit" }, t("Verify the claim")));
  verify.addEventListener("input", () => fill(total, tx("Cards in hand: {n}", { n: num(handOf(verify).reduce((a, b) => a + b, 0)) })));
  verify.addEventListener("submit", (event) => settle(event, claim, "verify"));
  const reject = h("form", { class: "reject-form" },
    h("label", { for: `${id}-reason` }, t("Reason for rejecting")),
    h("input", { id: `${id}-reason`, name: "reason", required: true, maxlength: 200, autocomplete: "off" }),
    h("button", { type: "submit", class: "secondary" }, t("Reject the claim")));
  reject.addEventListener("submit", (event) => settle(event, claim, "reject"));
  return h("li", { "data-claim": key }, h("article", { class: "catan-claim", "aria-labelledby": `${id}-title` },
    h("h4", { id: `${id}-title` }, teamSymbol(claim.role, "team-mark"), bdi(claim.name), " · ", tx("{points} points", { points: num(claim.points) })),
    h("p", { class: "claim-meta" }, where(claim), " · ", teamWord(claim.role), " · ", tx("claimed in turn {n}", { n: num(claim.turn) }),
      Number.isInteger(claim.registered) ? [" · ", tx("registration {n}", { n: num(claim.registered) })] : null),
    h("div", { class: "claim-body" }, breakdownTable(claim.breakdown, claim.points),
      h("div", { class: "claim-forms" }, verify, reject))));
}

function breakdownTable(breakdown, points) {
  return h("table", { class: "breakdown" },
    h("caption", { class: "visually-hidden" }, t("Breakdown")),
    h("tbody", {}, FIELDS.map(([key, label, each]) => {
      const value = breakdown[key];
      const shown = typeof value === "boolean" ? (value ? t("yes") : t("no")) : num(value);
      return h("tr", {}, h("th", { scope: "row" }, label()), h("td", {}, shown),
        h("td", {}, tx("{points} points", { points: num(each * Number(value)) })));
    })),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("Total")), h("td", {}),
      h("td", {}, tx("{points} points", { points: num(points) })))));
}

const handOf = (form) => RESOURCES.map((kind) => Number(form.elements[kind].value));

// Verify (with the cards in hand) or reject (with a reason) a claim; a refusal stays in its
// form, a success is said above the list (the claim's card goes).
async function settle(event, claim, kind) {
  event.preventDefault();
  const form = event.target;
  if (!form.reportValidity()) return;
  const move = { kind, seat: claim.seat };
  if (kind === "verify") move.resources = Object.fromEntries(RESOURCES.map((r, i) => [r, handOf(form)[i]]));
  else move.reason = form.elements.reason.value.trim();
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  const answer = await change(`/api/tables/${encodeURIComponent(claim.table)}/staff_move`, { move },
    { at: button, own: STAFF_REFUSALS });
  button.disabled = false;
  if (!answer) return;
  const done = kind === "verify" ? t("The claim of {name} is verified.", { name: claim.name })
    : t("The claim of {name} is rejected.", { name: claim.name });
  notice(done, "ok", $("catan-claims-title"));
}

// ------------------------------------------------------------------ verified claims

function drawVerified(verified) {
  const table = $("catan-verified");
  table.hidden = verified.length === 0;
  $("catan-no-verified").hidden = verified.length > 0;
  fill(table.tBodies[0], verified.map((claim) => {
    const hand = claim.resources ?? {};
    const count = RESOURCES.reduce((total, kind) => total + Number(hand[kind] ?? 0), 0);
    const detail = RESOURCES.map((kind) => `${resourceName(kind)} ${hand[kind] ?? 0}`).join(", ");
    return h("tr", {}, h("td", {}, bdi(claim.name)), h("td", {}, where(claim)), h("td", {}, team(claim.role)),
      h("td", {}, num(claim.points)), h("td", {}, num(claim.verified_turn ?? claim.turn)),
      h("td", {}, num(count), " (", detail, ")"));
  }));
}

// ------------------------------------------------------------------ correction

let seatChoices = "";
function drawSeatChoice(boards) {
  const options = boards.flatMap((board) => board.names.map((name, seat) => ({
    value: `${board.id}:${seat}`, label: `${name} · ${board.name} (${board.board ?? ""}) · ${teamWord(board.roles[seat])}`,
  })));
  const signature = JSON.stringify(options);
  if (signature === seatChoices) return;
  seatChoices = signature;
  const select = $("catan-correct-seat");
  const chosen = select.value;
  fill(select, options.map((option) => h("option", { value: option.value }, option.label)));
  if (options.some((option) => option.value === chosen)) select.value = chosen;
}

function correctionBreakdown(form) {
  return Object.fromEntries(FIELDS.map(([key]) => [key,
    form.elements[key].type === "checkbox" ? form.elements[key].checked : Number(form.elements[key].value)]));
}

function showCorrectionPoints() {
  const form = $("catan-correct-form");
  fill($("catan-correct-points"), tx("Total: {points} points", { points: num(pointsOf(correctionBreakdown(form))) }));
}

async function correct(event) {
  event.preventDefault();
  const form = event.target;
  if (!form.reportValidity()) return;
  const [tableId, seat] = form.elements.seat.value.split(":");
  const board = tableOf(tableId);
  const name = board?.names?.[Number(seat)] ?? "";
  const answer = await change(`/api/tables/${encodeURIComponent(tableId)}/staff_move`, {
    move: { kind: "correct", seat: Number(seat), breakdown: correctionBreakdown(form), reason: form.elements.reason.value.trim() },
  }, { done: t("The points of {name} are corrected.", { name }), at: form.querySelector("button[type=submit]"), own: STAFF_REFUSALS });
  if (answer) form.elements.reason.value = "";
}

// ------------------------------------------------------------------ standings

function drawStandings(game) {
  const rows = game.standings ?? [];
  $("catan-standings-box").hidden = !game.over || rows.length === 0;
  fill($("catan-standings"), rows.map((row) => {
    let checked = row.verified ? t("verified") : t("not verified");
    if (row.corrected) checked = [t("corrected by the staff"), ": ", bdi(row.corrected)];
    return h("tr", {}, h("td", { class: "num-cell" }, num(row.place)), h("td", {}, bdi(row.name)), h("td", {}, where(row)),
      h("td", {}, team(row.role)), h("td", { class: "num-cell" }, num(row.points)), h("td", {}, checked));
  }));
}

// ------------------------------------------------------------------ start

$("catan-correct-form").addEventListener("submit", correct);
$("catan-correct-form").addEventListener("input", showCorrectionPoints);
showCorrectionPoints();
onView(draw);
