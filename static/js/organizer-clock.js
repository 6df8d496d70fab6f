// The console's turn clock (templates/organizer/parts/clock.html), for every event: the turn
// and its time left, pause and resume, rolling for the hall when the time is up, the schedule
// of turn times (`[first turn, seconds]` steps), the end of the event; and the follow-up dice
// (a ruleset's second roll, such as Catan's robbers') entered with the dice rolled by hand.
// Routes: POST /api/events/<id>/clock, /pause, /resume, /end, /roll (docs/api.md).

import { t } from "./i18n.js";
import { $, fill, h, rollWords } from "./dom.js";
import { notice } from "./organizer-api.js";
import { change, clockText, currentEvent, currentView, eventPath, onView, serverNow } from "./organizer-event.js";
import { eventRuleset, hasWord, said } from "./organizer-words.js";

// A step's third number, a turn's opening seconds (Catan's production: RULES.md 21), is offered
// when the event's ruleset names it (its console words).
const OPENING = "Opening seconds of a turn";
const openingWord = () => {
  const ruleset = eventRuleset(currentView()?.tables);
  return hasWord(ruleset, OPENING) ? said(ruleset, OPENING) : null;
};

const DEFAULT_STEP = [1, 60];
const DEFAULT_OPENING = 20; // the server's default (companion/rules/schedule.py): not sent
let drawnSchedule = null; // the schedule the form shows, as JSON: redrawn only when it changed

// ------------------------------------------------------------------ state and time left

function clockLine(view) {
  if (!view) return "";
  const { event, turn } = view;
  if (event.ended) return t("The event has ended: the hall rolls no more.");
  if (event.over) return t("The game is over: the hall rolls no more.");
  if (!turn) return t("No roll yet: the clock starts with the first roll.");
  const n = turn.number;
  if (turn.paused) {
    return turn.remaining_ms === null || turn.remaining_ms === undefined
      ? t("Turn {n}: the clock is paused.", { n })
      : t("Turn {n}: the clock is paused with {time} left.", { n, time: clockText(turn.remaining_ms) });
  }
  if (turn.deadline_ms === null || turn.deadline_ms === undefined) return t("Turn {n}: no time limit.", { n });
  const left = turn.deadline_ms - serverNow();
  if (left > 0) return t("Turn {n}: {time} left.", { n, time: clockText(left) });
  return event.auto_roll ? t("Turn {n}: the time is up; the hall rolls now.", { n }) : t("Turn {n}: the time is up.", { n });
}

function tick() {
  const view = currentView();
  const line = $("clock-status");
  const text = clockLine(view);
  if (line.textContent !== text) line.textContent = text;
  line.dataset.kind = view?.turn?.paused ? "paused" : "";
}
setInterval(tick, 500);

function draw(view) {
  tick();
  if (!view) return;
  const { event, turn } = view;
  const closed = Boolean(event.ended || event.over);
  $("clock-pause").hidden = !turn || event.paused || closed;
  $("clock-resume").hidden = !event.paused || closed;
  $("clock-end").hidden = Boolean(event.ended);
  const auto = $("clock-auto");
  if (document.activeElement !== auto) auto.checked = Boolean(event.auto_roll);
  auto.disabled = closed;
  drawSchedule(event.schedule);
  showFollowUp(view);
}

// ------------------------------------------------------------------ the schedule

function drawSchedule(schedule, force = false) {
  const json = JSON.stringify(schedule ?? null);
  const form = $("schedule-form");
  if (!force && (`${json}|${openingWord()}` === drawnSchedule || form.contains(document.activeElement))) return;
  drawnSchedule = `${json}|${openingWord()}`;
  fill($("schedule-steps"), (schedule?.length ? schedule : [DEFAULT_STEP]).map(stepRow));
  // without a saved schedule the step shown is a proposal: drawn as one, and said so
  form.classList.toggle("unsaved", !schedule?.length);
  $("schedule-unsaved").hidden = Boolean(schedule?.length);
  numberSteps();
}

let stepIds = 0;
function stepRow([first, seconds, opening]) {
  const id = ++stepIds;
  const word = openingWord();
  return h("li", { class: "schedule-step" },
    h("label", { for: `step-first-${id}` }, t("From turn"),
      h("input", { id: `step-first-${id}`, name: "first", type: "number", min: 1, step: 1, value: first, inputmode: "numeric" })),
    h("label", { for: `step-seconds-${id}` }, t("Seconds a turn"),
      h("input", { id: `step-seconds-${id}`, name: "seconds", type: "number", min: 10, max: 900, step: 1, value: seconds, inputmode: "numeric" })),
    word && h("label", { for: `step-opening-${id}` }, word,
      h("input", { id: `step-opening-${id}`, name: "opening", type: "number", min: 0, max: 900, step: 1, value: opening ?? DEFAULT_OPENING, inputmode: "numeric" })),
    h("button", { type: "button", class: "secondary outline step-remove" }, t("Remove")));
}

// Only a schedule of more than one step offers to remove one; each button says which.
function numberSteps() {
  const rows = [...$("schedule-steps").children];
  rows.forEach((row, i) => {
    const remove = row.querySelector(".step-remove");
    remove.hidden = rows.length < 2;
    remove.setAttribute("aria-label", t("Remove step {n}", { n: i + 1 }));
  });
}

function readSchedule() {
  return [...$("schedule-steps").children].map((row) => {
    const opening = row.querySelector("[name=opening]");
    return [Number(row.querySelector("[name=first]").value), Number(row.querySelector("[name=seconds]").value),
      ...(opening && Number(opening.value) !== DEFAULT_OPENING ? [Number(opening.value)] : [])];
  });
}

async function saveSchedule(event) {
  event.preventDefault();
  if (!currentEvent()) return;
  const at = event.submitter ?? event.target.querySelector("button[type=submit]");
  const answer = await change(eventPath("/clock"), { schedule: readSchedule() }, { done: t("The schedule is saved."), at });
  if (answer) drawSchedule(answer.schedule, true);
}

async function clearSchedule(event) {
  if (!currentEvent()) return;
  const answer = await change(eventPath("/clock"), { schedule: null }, { done: t("The turns have no time limit now."), at: event.target });
  if (answer) drawSchedule(answer.schedule, true);
}

function addStep() {
  const steps = readSchedule();
  const [first, seconds, opening] = steps.at(-1) ?? DEFAULT_STEP;
  const row = stepRow([first + 10, seconds, opening]);
  $("schedule-steps").append(row);
  numberSteps();
  row.querySelector("input").focus();
}

function removeStep(event) {
  const button = event.target.closest(".step-remove");
  if (!button) return;
  const row = button.closest("li");
  const next = row.nextElementSibling ?? row.previousElementSibling;
  row.remove();
  numberSteps();
  next?.querySelector("input")?.focus();
}

// ------------------------------------------------------------------ pause, resume, auto-roll, end

async function setAutoRoll(event) {
  const box = event.target;
  const on = box.checked;
  const answer = await change(eventPath("/clock"), { auto_roll: on }, {
    done: on ? t("The hall rolls by itself when the time is up.") : t("The hall rolls only when you roll."), at: box });
  if (!answer) box.checked = !on;
}

async function endEvent(event) {
  if (!window.confirm(t("End the event? The hall rolls no more, and the game ends at every table."))) return;
  await change(eventPath("/end"), {}, { done: t("The event has ended."), at: event.target });
}

// ------------------------------------------------------------------ the follow-up dice

// A ruleset whose console part says `data-follow-up-dice` may ask for dice after a roll (Catan:
// the robbers' roll after a 7 from turn 16): the form of dice rolled by hand then takes them.
function showFollowUp(view) {
  const rulesets = new Set((view.tables ?? []).map((table) => table.ruleset));
  const asks = [...document.querySelectorAll(".ruleset-part[data-follow-up-dice]")]
    .some((part) => rulesets.has(part.dataset.ruleset));
  $("follow-up-dice").hidden = !asks;
}

// The dice rolled by hand with follow-up dice: rolled here, with them (the console's roll
// section rolls the dice alone). Four dice chosen one by one are no second press by mistake,
// so the roll is confirmed.
async function rollWithFollowUp(event) {
  const form = event.target;
  if (form.id !== "hand-dice-form") return;
  const chosen = [form.elements.f1.value, form.elements.f2.value];
  if (chosen.every((value) => value === "")) return; // the roll section's own roll
  event.preventDefault();
  event.stopImmediatePropagation();
  const at = form.querySelector("button[type=submit]");
  if (chosen.some((value) => value === "")) {
    notice(t("Choose both follow-up dice, or neither."), "error", at);
    return;
  }
  const dice = [Number(form.elements.d1.value), Number(form.elements.d2.value)];
  const answer = await change(eventPath("/roll"), { dice, follow_up: chosen.map(Number), confirm: true }, { at });
  if (!answer) return;
  const said = [rollWords(answer.roll, answer.dice)];
  said.push(answer.follow_up?.length
    ? t("Follow-up dice: {dice}.", { dice: answer.follow_up.join(", ") })
    : t("This roll took no follow-up dice."));
  notice(said.join(" "), "ok", at);
  form.elements.f1.value = "";
  form.elements.f2.value = "";
}

// ------------------------------------------------------------------ start

$("schedule-form").addEventListener("submit", saveSchedule);
$("schedule-add").addEventListener("click", addStep);
$("schedule-clear").addEventListener("click", clearSchedule);
$("schedule-steps").addEventListener("click", removeStep);
$("clock-auto").addEventListener("change", setAutoRoll);
// Pause and resume take each other's place: the focus goes to the one shown.
async function pauseOrResume(action, done, other) {
  const at = $(`clock-${action}`);
  const answer = await change(eventPath(`/${action}`), {}, { done, at });
  if (answer) {
    $(`clock-${action}`).hidden = true;
    $(`clock-${other}`).hidden = false;
    $(`clock-${other}`).focus();
  }
}
$("clock-pause").addEventListener("click", () => pauseOrResume("pause", t("The clock is paused."), "resume"));
$("clock-resume").addEventListener("click", () => pauseOrResume("resume", t("The clock runs again."), "pause"));
$("clock-end").addEventListener("click", endEvent);
// Before the roll section's own listener on the form: the capture phase of its box.
$("hand-dice").addEventListener("submit", rollWithFollowUp, true);
onView(draw);
