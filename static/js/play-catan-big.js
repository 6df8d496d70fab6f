// The big Catan event's phone (templates/play/parts/catan-big.html, RULES.md 20-24): the
// player's team, board and colour, whether their team is on turn, the hall's roll with its
// countdown, the discard check and the robbers' instruction (the event's `turn` message); a
// points tracker with the breakdown of RULES.md 23, sent as a `track` move as the player taps;
// the claim of victory and its status; at the end the board's result and the final breakdown
// (RULES.md 24). It draws the seat view (docs/api.md); play.js owns the socket and sends the
// moves; the server judges every one of them.

import { refusal, t } from "./i18n.js";
import { $, bdi, die, diceSum, fill, h, num, tx } from "./dom.js";
import { confirmWith } from "./feedback.js";
import { act, clearNotice, data, eventTurn } from "./play.js";

const RULESET = "catan-big";
const game = data.catan; // the ruleset's page data: the breakdown's fields, caps, resources
const WIN = game.winning_points;
const FIELDS = game.fields; // [{id, kind: "count"|"flag", max?, points}], in the form's order
const SAVE_AFTER_MS = 400; // taps in a row are sent as one `track` move
const SVG = "http://www.w3.org/2000/svg";

let view = data.view;
let turn = eventTurn; // the event's `turn` message: null before the first roll

// ------------------------------------------------------------------ words

const TEAM = { sun: () => t("Sun team"), moon: () => t("Moon team") };
const TEAM_TURN = { sun: () => t("The Sun team's turn"), moon: () => t("The Moon team's turn") };
const COLOUR = {
  red: () => t("red"), blue: () => t("blue"), white: () => t("white"),
  orange: () => t("orange"), green: () => t("green"), brown: () => t("brown"),
};
const FIELD_NAME = {
  settlements: () => t("Settlements"),
  cities: () => t("Cities"),
  foreign_start_settlements: () => t("Settlements in a foreign start area"),
  vp_cards: () => t("Victory point cards"),
  largest_army: () => t("Largest army"),
  longest_road: () => t("Longest road"),
};
const FIELD_HINT = {
  settlements: (cap) => tx("1 point each, at most {cap}", { cap: num(cap) }),
  cities: (cap) => tx("2 points each, at most {cap}", { cap: num(cap) }),
  foreign_start_settlements: (cap) => tx("+2 only for your first settlement in each foreign start area (at most {cap} areas); it stays once it is a city", { cap: num(cap) }),
  vp_cards: (cap) => tx("1 point each, at most {cap}", { cap: num(cap) }),
  largest_army: () => t("2 points"),
  longest_road: () => t("2 points"),
};
const RESOURCE = {
  grain: () => t("Grain"), ore: () => t("Ore"), brick: () => t("Brick"), wood: () => t("Wood"), wool: () => t("Wool"),
};
// Why the claim button is closed (the seat view's `can_claim.reason`, or judged here on the
// figures in the form: the server judges the claim when it arrives).
const CLOSED = {
  not_started: () => t("Claims open with the hall's first roll."),
  claim_pending: () => t("Your claim is being checked by the staff."),
  game_over: () => t("The game is over."),
  not_your_turn: () => t("A claim counts only on your team's turn."),
  under_25: (points) => tx("You need {win} points to claim victory; you have {points}.", { win: num(WIN), points: num(points) }),
};

// A refusal of one of this game's moves in words (null: play.js's general sentence).
function refusedWords(move) {
  return (answer) => {
    const points = pointsOf(move.breakdown ?? {});
    const words = {
      "catan/not_started": () => t("The game has not started: claims open with the hall's first roll."),
      "rule/not_your_turn": () => t("Not your team's turn: a claim counts only on your team's turn."),
      "catan/claim_pending": () => t("Your claim is already being checked by the staff."),
      "catan/turn_closing": () => t("The turn is ending: claim in your team's next turn."),
      "catan/under_25": () => t("{points} points is under {win}: no win yet, play goes on.", { points, win: WIN }),
      "catan/over_cap": () => overCapWords(answer.message),
      "catan/bad_claim": () => t("These figures are not valid."),
      "catan/not_over": () => t("The final points are entered once the game is over."),
      "rule/game_over": () => t("The game is over."),
    };
    return words[answer.code]?.() ?? null;
  };
}

// The server names the field over its cap first: "breakdown.cities: at most 10 ...".
function overCapWords(message) {
  const field = /^breakdown\.(\w+):/.exec(message ?? "")?.[1];
  const name = FIELD_NAME[field]?.();
  return name ? t("{field}: more than the rules allow.", { field: name })
    : t("More than the rules allow.");
}

// ------------------------------------------------------------------ figures

const pointsOf = (breakdown) => FIELDS.reduce((sum, field) => sum
  + (field.kind === "flag" ? (breakdown[field.id] ? field.points : 0) : (breakdown[field.id] ?? 0) * field.points), 0);
const capOf = (field) => view.caps?.[field.id] ?? field.max ?? 0;
const copy = (breakdown) => Object.fromEntries(FIELDS.map((f) => [f.id, breakdown?.[f.id] ?? (f.kind === "flag" ? false : 0)]));

// What is wrong with the figures in the form as RULES.md 23 caps them, or null (the server
// checks it again: catan/over_cap).
function problem(breakdown) {
  const built = breakdown.settlements + breakdown.cities;
  if (breakdown.foreign_start_settlements > built) {
    return tx("{field}: at most your settlements plus cities ({n}).", {
      field: FIELD_NAME.foreign_start_settlements(), n: num(built),
    });
  }
  return null;
}

// ------------------------------------------------------------------ the form's state

// "track": each change is sent (after a short pause) as a `track` move; "final": after the
// game, the player sends the final breakdown with a button.
let mode = modeOf(view);
let draft = copy(figuresOf(view));
let edits = 0; // changes made in the form
let saved = 0; // changes the server has (sent and accepted)
let saving = false; // a `track` move on its way
let saveTimer = null;
let failed = false; // the last `track` move was refused: the figures are not saved

function modeOf(seen) {
  return seen.over ? "final" : "track";
}

function figuresOf(seen) {
  if (modeOf(seen) === "final") return seen.final?.breakdown ?? seen.tracker.breakdown;
  return seen.tracker.breakdown;
}

// Whether the form holds figures the server does not have yet (then a view does not overwrite
// them: a correction by the staff shows once the player's own changes are saved).
const unsaved = () => edits > saved || saving || saveTimer !== null;

function change(id, value) {
  draft[id] = value;
  edits += 1;
  failed = false;
  if (mode === "track") {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, SAVE_AFTER_MS);
  }
  draw();
}

async function save() {
  saveTimer = null;
  if (saving || mode !== "track") return; // the answer on its way sends the rest
  if (problem(draft) || !view.can_track) {
    draw();
    return;
  }
  const sending = edits;
  const move = { kind: "track", breakdown: copy(draft) };
  saving = true;
  draw();
  const answer = await act(move, null, { quiet: true, refused: refusedWords(move) });
  saving = false;
  if (answer.ok) saved = Math.max(saved, sending);
  else failed = true;
  if (answer.ok && edits > saved && saveTimer === null) saveTimer = setTimeout(save, 0); // taps made meanwhile
  draw();
}

// ------------------------------------------------------------------ drawing

document.addEventListener("companion:view", (event) => {
  const before = view;
  view = event.detail;
  if (modeOf(view) !== mode) { // the game ended: the form becomes the final breakdown's
    mode = modeOf(view);
    clearTimeout(saveTimer);
    saveTimer = null;
    edits = 0;
    saved = 0;
    draft = copy(figuresOf(view));
  }
  if (before.claim?.status !== view.claim?.status || before.over !== view.over) {
    clearNotice(); // it spoke of the claim as it was
    answer(null);
    if (view.claim && view.claim.status !== "pending") confirmWith(view.claim.status === "verified" ? "income" : "refused");
  }
  draw();
});

document.addEventListener("companion:turn", (event) => {
  const before = turn;
  turn = event.detail;
  learnSkew(turn);
  if (before?.number !== turn.number) {
    clearNotice(); // the notice spoke of the last turn
    answer(null);
    announceTurn();
    if (myTeamOnTurn()) confirmWith("income");
  }
  draw();
});

function draw() {
  if (!unsaved() && mode === "track") draft = copy(figuresOf(view));
  if (mode === "final" && edits === 0) draft = copy(figuresOf(view));
  drawIdentity();
  drawTurn();
  drawOutcome();
  drawClaimStatus();
  drawForm();
  drawBoard();
}

const rules = () => turn?.rules?.[RULESET] ?? null;
const gameOver = () => Boolean(view.over || turn?.over || turn?.ended);
const myTeamOnTurn = () => Boolean(rules()) && rules().team === view.role && !gameOver();

function icon(team) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", `icon ${team}`);
  const shape = (tag, attrs) => {
    const element = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
    svg.append(element);
  };
  if (team === "sun") {
    shape("circle", { cx: 12, cy: 12, r: 5 });
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      const at = (r) => [12 + r * Math.cos(a), 12 + r * Math.sin(a)].map((v) => v.toFixed(2));
      const [x1, y1] = at(7.5);
      const [x2, y2] = at(10.5);
      shape("line", { x1, y1, x2, y2 });
    }
  } else {
    shape("path", { d: "M15.5 2.5a9.5 9.5 0 1 0 6 16.8A8 8 0 0 1 15.5 2.5z" });
  }
  return svg;
}

function drawIdentity() {
  const team = view.role;
  fill($("catan-team-icon"), icon(team));
  $("catan-team-word").textContent = TEAM[team]?.() ?? "";
  fill($("catan-board"), view.board ? tx("Board {letter}", { letter: bdi(view.board) }) : "");
  const colour = view.colour;
  fill($("catan-colour"), colour ? [h("span", { class: `swatch ${colour}`, "aria-hidden": "true" }),
    tx("Your colour: {colour}", { colour: COLOUR[colour]?.() ?? colour })] : "");
  const onTurn = $("catan-on-turn");
  const duty = $("catan-duty");
  onTurn.dataset.active = String(myTeamOnTurn());
  if (gameOver()) {
    onTurn.textContent = t("The game is over.");
    duty.textContent = "";
  } else if (!rules()) {
    onTurn.textContent = t("Waiting for the first roll");
    duty.textContent = t("The Sun team plays first.");
  } else if (myTeamOnTurn()) {
    onTurn.textContent = t("Your team's turn");
    duty.textContent = t("Take your resources, then trade and build until the time is up.");
  } else {
    onTurn.textContent = TEAM_TURN[rules().team]();
    duty.textContent = t("Hand out the resources the active players earn; trade only with the active players opposite you.");
  }
}

function drawTurn() {
  $("catan-turn").hidden = !turn;
  if (!turn) return;
  fill($("catan-turn-number"), tx("Turn {n}", { n: num(turn.number) }));
  fill($("catan-dice"), turn.dice.map((value) => die(value)),
    h("span", { class: "sum" }, tx("= {sum}", { sum: num(diceSum(turn.dice)) })));
  fill($("catan-instructions"), instructions().map((line) => h("li", {}, line)));
  tickClock();
}

// The turn's lines: the discard check and the robbers on a 7 (RULES.md 22), a paused clock.
function instructions() {
  const lines = [];
  const said = rules();
  if (turn.ended) return [t("The event has ended.")];
  if (said?.discard) lines.push(t("A 7: everyone with 8 or more resource cards discards half of them, rounded down."));
  const robber = said?.robber;
  const follow = turn.follow_up?.length === 2 ? num(diceSum(turn.follow_up)) : null;
  if (robber?.action === "stay") lines.push(t("The robbers stay where they are."));
  if (robber?.action === "move") {
    lines.push(tx("Robbers' roll {n}: every robber moves to the tile {n} in its start area; no card is stolen.", { n: num(robber.number) }));
  }
  if (robber?.action === "move_one") {
    lines.push(tx("Robbers' roll {n}: one robber goes to the {n}; the other stays on or returns to its desert. No card is stolen.", { n: num(robber.number) }));
  }
  if (robber?.action === "desert") {
    lines.push(tx("Robbers' roll {n}: every robber returns to its desert.", { n: follow ?? num(7) }));
  }
  if (said?.discard && !robber) lines.push(t("Wait for the robbers' roll."));
  if (turn.paused && !gameOver()) lines.push(t("The clock is paused: the staff resume it."));
  return lines;
}

// The countdown of the turn: deadline_ms is the server's clock, and a phone's own clock may be
// off by minutes (set by hand, no network time): each `turn` message carries the server's
// now_ms as it was sent, so the phone counts by the server's clock (to within the network's
// delay).
let skew = 0;
const serverNow = () => Date.now() + skew;
const learnSkew = (message) => {
  if (Number.isFinite(message?.now_ms)) skew = message.now_ms - Date.now();
};
learnSkew(turn);

function tickClock() {
  const clock = $("catan-clock");
  const label = $("catan-clock-label");
  const box = clock.parentElement;
  let left = null;
  if (turn && !gameOver()) left = turn.paused ? turn.remaining_ms : turn.deadline_ms === null ? null : Math.max(0, turn.deadline_ms - serverNow());
  box.hidden = left === null || left === undefined;
  if (box.hidden) {
    $("catan-phase").hidden = true;
    return;
  }
  const seconds = Math.ceil(left / 1000);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  if (clock.textContent !== text) clock.textContent = text;
  let words = t("time left");
  if (turn.paused) words = t("Paused");
  else if (seconds === 0) words = turn.auto_roll ? t("Time is up: the next roll comes.") : t("Time is up.");
  if (label.textContent !== words) label.textContent = words;
  box.dataset.state = turn.paused ? "paused" : seconds === 0 ? "up" : seconds <= 10 ? "short" : "running";
  drawPhase(left);
}
setInterval(tickClock, 250);

// The turn's step, as the hall screen shows it: production for the schedule's first seconds
// (`production_seconds`, 0 once the staff ended it), then trade and build (RULES.md 21).
function drawPhase(left) {
  const line = $("catan-phase");
  const total = Number.isInteger(turn?.seconds) ? turn.seconds * 1000 : null;
  const production = 1000 * (turn?.production_seconds ?? 0);
  const phase = total === null || seconds0(left) ? null : total - left < production ? "production" : "build";
  line.hidden = phase === null;
  if (phase === null) return;
  const words = phase === "production" ? t("Production: hand out the resources; no trading yet.")
    : t("Trade and build.");
  if (line.textContent !== words) line.textContent = words;
  line.dataset.phase = phase;
}
const seconds0 = (left) => left === null || left === undefined || left <= 0;

function announceTurn() {
  if (!turn) return;
  const team = rules()?.team;
  const whose = !team ? "" : team === view.role ? t("Your team's turn") : TEAM_TURN[team]();
  $("announce").textContent = `${t("Turn {n}: {sum} rolled.", { n: turn.number, sum: diceSum(turn.dice) })} ${whose}`;
}

function drawOutcome() {
  const box = $("catan-outcome");
  box.hidden = !view.over;
  document.body.classList.toggle("catan-over", Boolean(view.over));
  if (!view.over) return;
  $("catan-outcome-headline").textContent = t("The game is over.");
  // The event's winner and this player's place (the `turn` message's `results`, RULES.md 24).
  const results = turn?.results?.[RULESET];
  const place = results?.places?.[String(view.table?.id)]?.[String(view.seat)];
  const winner = results?.winner;
  const lines = [];
  if (winner && winner.table === view.table?.id && winner.seat === view.seat) {
    lines.push(tx("You won the event with {points} points!", { points: num(winner.points) }));
  } else if (winner) {
    lines.push(tx("{name} won the event with {points} points (board {board}).",
      { name: bdi(winner.name), points: num(winner.points), board: winner.board ?? "" }));
  } else if (results) {
    lines.push(t("No claim of victory was verified: the standings rank by points."));
  } else {
    const verified = view.players.filter((p) => p.claim?.status === "verified");
    lines.push(verified.length
      ? tx("At your board, {name}'s claim of {points} points was verified.", { name: bdi(verified[0].name), points: num(verified[0].claim.points) })
      : t("No claim was verified at your board."));
  }
  if (Number.isInteger(place)) {
    lines.push(tx("Your place: {place} of {count}.", { place: num(place), count: num(results.players) }));
  }
  fill($("catan-outcome-detail"), lines.flatMap((line, i) => [i ? " " : null, h("span", { class: "outcome-line" }, line)]));
}

function drawClaimStatus() {
  const box = $("catan-claim-status");
  const claim = view.claim;
  box.hidden = !claim;
  if (!claim) return;
  box.dataset.status = claim.status;
  const params = { points: num(claim.points), turn: num(claim.turn) };
  const words = {
    pending: () => tx("Your claim of {points} points (turn {turn}) is waiting for the staff: stay at your board.", params),
    verified: () => tx("Your claim of {points} points (turn {turn}) is verified.", params),
    rejected: () => tx("Your claim of {points} points (turn {turn}) was rejected: {reason}", { ...params, reason: bdi(claim.reason ?? "") }),
  };
  fill(box, words[claim.status]?.() ?? "");
}

// ------------------------------------------------------------------ the form

// The rows of the form, made once (a redraw keeps the focus on the button being tapped).
const rows = new Map();

function buildForm() {
  const box = $("catan-fields");
  for (const field of FIELDS) {
    const name = FIELD_NAME[field.id]?.() ?? field.id;
    const labelId = `catan-${field.id}-label`;
    const hint = h("small", { class: "hint", id: `catan-${field.id}-hint` });
    if (field.kind === "flag") {
      const input = h("input", {
        type: "checkbox", role: "switch", id: `catan-${field.id}`, "aria-describedby": hint.id,
        onchange: () => change(field.id, input.checked),
      });
      box.append(h("div", { class: "field flag", "data-field": field.id },
        h("label", { for: input.id }, input, h("span", { class: "label" }, h("span", { class: "name" }, name), hint))));
      rows.set(field.id, { input, hint });
    } else {
      const value = h("output", { id: `catan-${field.id}`, class: "value num", "aria-labelledby": labelId });
      const step = (by, words) => h("button", {
        type: "button", class: "step", "data-step": String(by), "aria-label": words,
        onclick: () => change(field.id, draft[field.id] + by),
      }, by > 0 ? "+" : "−");
      const less = step(-1, t("One less: {field}", { field: name }));
      const more = step(1, t("One more: {field}", { field: name }));
      box.append(h("div", { class: "field count", "data-field": field.id },
        h("p", { class: "label" }, h("span", { class: "name", id: labelId }, name), hint),
        h("div", { class: "stepper" }, less, value, more)));
      rows.set(field.id, { value, less, more, hint });
    }
  }
  const hand = $("catan-hand");
  for (const kind of game.resources) {
    const input = h("input", {
      type: "number", id: `catan-hand-${kind}`, min: "0", step: "1", inputmode: "numeric", placeholder: "0",
      oninput: () => { edits += 1; drawButtons(); },
    });
    hand.append(h("label", { for: input.id, class: "resource" }, h("span", {}, RESOURCE[kind]?.() ?? kind), input));
  }
}

function drawForm() {
  const final = mode === "final";
  const open = final ? Boolean(view.can_final) : Boolean(view.can_track);
  $("catan-points-title").textContent = final ? t("My final points") : t("My points");
  let note = t("Keep your points up to date as you build: the staff see them.");
  if (final) note = t("For the standings: your points at the end, and your cards in hand for a tie.");
  else if (!open) note = t("The points open when your board starts.");
  const corrected = final ? view.final?.corrected : view.tracker.corrected;
  fill($("catan-points-note"), corrected ? [note, " ", tx("The staff set your points: {reason}", { reason: bdi(corrected) })] : note);
  for (const field of FIELDS) {
    const row = rows.get(field.id);
    const cap = capOf(field);
    fill(row.hint, FIELD_HINT[field.id]?.(cap) ?? "");
    if (field.kind === "flag") {
      row.input.checked = Boolean(draft[field.id]);
      row.input.disabled = !open;
    } else {
      const value = draft[field.id];
      row.value.textContent = String(value);
      row.less.disabled = !open || value <= 0;
      const limit = field.id === "foreign_start_settlements" ? Math.min(cap, draft.settlements + draft.cities) : cap;
      row.more.disabled = !open || value >= limit;
    }
  }
  const wrong = problem(draft);
  $("catan-form-problem").hidden = !wrong;
  fill($("catan-form-problem"), wrong ?? "");
  const points = pointsOf(draft);
  fill($("catan-total"), final ? tx("{points} points", { points: h("strong", { class: "num" }, String(points)) })
    : tx("{points} of {win} points", { points: h("strong", { class: "num" }, String(points)), win: num(WIN) }));
  $("catan-total").dataset.enough = String(points >= WIN);
  $("catan-saved").textContent = final ? "" : savedWords(open);
  $("catan-resources").hidden = !final;
  $("catan-resources-title").textContent = t("Cards in hand, for a tie (optional)");
  if (final && edits === 0) {
    for (const kind of game.resources) {
      const had = view.final?.resources?.[kind];
      $(`catan-hand-${kind}`).value = had === undefined || had === null ? "" : String(had);
    }
  }
  for (const kind of game.resources) $(`catan-hand-${kind}`).disabled = !open;
  drawButtons();
}

function savedWords(open) {
  if (!open) return "";
  if (problem(draft)) return t("Not saved: check the figures.");
  if (failed) return t("Not saved.");
  if (unsaved()) return t("Saving…");
  return t("Saved.");
}

// The claim button (while the game runs) or the final breakdown's (after it), and why it is
// closed or what counts.
function drawButtons() {
  const final = mode === "final";
  const claim = $("catan-claim");
  const send = $("catan-final");
  const why = $("catan-claim-why");
  claim.hidden = final;
  send.hidden = !final;
  claim.textContent = t("Claim victory");
  send.textContent = t("Send my final points");
  const points = pointsOf(draft);
  if (final) {
    send.disabled = !view.can_final || Boolean(problem(draft)) || handProblem() !== null;
    const sent = view.final;
    let words = handProblem();
    if (!words && sent) words = tx("Sent: {points} points.", { points: num(sent.points) });
    if (!words && !view.can_final) words = t("The table is not running right now.");
    fill(why, words ?? "");
    return;
  }
  let reason = view.can_claim?.reason ?? null;
  if (reason === "under_25" || reason === null) reason = points < WIN ? "under_25" : null;
  claim.disabled = reason !== null || Boolean(problem(draft));
  let words = reason ? CLOSED[reason]?.(points) ?? t("Not possible now.") : null;
  if (!reason && rules() && !myTeamOnTurn()) {
    words = tx("It is the {team}'s turn: a claim counts only on your team's turn.", { team: TEAM[rules().team]() });
  } else if (!reason) {
    words = t("Claim on your team's turn: the staff come to your board to check it.");
  }
  fill(why, words ?? "");
}

// The cards in hand as the final move sends them: null when none is filled in (they are
// optional), else all five (an empty one is 0).
function hand() {
  const values = game.resources.map((kind) => $(`catan-hand-${kind}`).value.trim());
  if (values.every((v) => v === "")) return null;
  return Object.fromEntries(game.resources.map((kind, i) => [kind, values[i] === "" ? 0 : Number(values[i])]));
}

function handProblem() {
  const cards = mode === "final" ? hand() : null;
  if (cards && !Object.values(cards).every((n) => Number.isInteger(n) && n >= 0)) {
    return t("Cards in hand are whole numbers, 0 or more.");
  }
  return null;
}

// ------------------------------------------------------------------ the claim and the final points

let confirmed = null; // what the confirmation's OK sends

$("catan-claim").addEventListener("click", () => {
  const breakdown = copy(draft);
  confirmed = () => sendClaim(breakdown);
  $("catan-confirm-text").textContent = t("Claim victory with {points} points? The staff come to your board to check it.", { points: pointsOf(breakdown) });
  $("catan-confirm-ok").textContent = t("Claim victory");
  $("catan-confirm-cancel").textContent = t("Cancel");
  $("catan-confirm").showModal();
});
$("catan-confirm-cancel").addEventListener("click", () => $("catan-confirm").close());
$("catan-confirm-ok").addEventListener("click", async () => {
  $("catan-confirm").close();
  const asked = confirmed;
  confirmed = null;
  if (asked) await asked();
});

// The answer to the claim or the final points, said under the button too: the notice is at the
// top of the page, out of sight of a player at the bottom of the form.
function answer(words, kind = "refused") {
  const box = $("catan-answer");
  box.hidden = !words;
  box.dataset.kind = kind;
  fill(box, words ?? "");
}

async function sendAndAnswer(move, done) {
  const refused = refusedWords(move);
  const outcome = await act(move, done, { refused });
  answer(outcome.ok ? done : refused(outcome) ?? refusal(outcome.code, outcome.message), outcome.ok ? "done" : "refused");
  return outcome;
}

async function sendClaim(breakdown) {
  $("catan-claim").disabled = true;
  await sendAndAnswer({ kind: "claim", breakdown }, t("Your claim is sent: the staff come to your board to check it."));
  draw();
}

$("catan-final").addEventListener("click", async () => {
  $("catan-final").disabled = true;
  const outcome = await sendAndAnswer({ kind: "final", breakdown: copy(draft), resources: hand() },
    t("Your final points are sent."));
  if (outcome.ok) edits = 0;
  draw();
});

// ------------------------------------------------------------------ the board

function drawBoard() {
  fill($("catan-table-title"), view.board ? tx("At board {letter}", { letter: bdi(view.board) }) : t("At your board"));
  const status = {
    pending: () => t("claim being checked"), verified: () => t("claim verified"), rejected: () => t("claim rejected"),
  };
  fill($("catan-players"), view.players.map((player, seat) => h("li", { class: seat === view.seat ? "me" : "" },
    h("span", { class: "name" }, icon(player.role), " ", bdi(player.name), seat === view.seat ? ` (${t("you")})` : ""),
    h("span", { class: "team" }, TEAM[player.role]?.() ?? "", player.colour ? ` · ${COLOUR[player.colour]?.() ?? player.colour}` : ""),
    h("span", { class: "points" }, tx("{points} points", { points: num(player.points) })),
    player.claim ? h("span", { class: `claim ${player.claim.status}` }, status[player.claim.status]?.() ?? "") : null)));
  const near = (view.neighbours ?? []).filter(Boolean);
  fill($("catan-neighbours"), near.length ? tx("Neighbouring boards: {names}", {
    names: near.flatMap((name, i) => (i ? [" · ", bdi(name)] : [bdi(name)])),
  }) : "");
}

buildForm();
draw();
if (turn) announceTurn();
