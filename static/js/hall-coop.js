// The co-op Tax Assessor's tile on the hall screen (hall.js draws the other tiles): both
// players' coins and landmarks, the assessor's coins, its array of assessed taxes and the value
// sought next, deck and discard counts, its last turn played one step after another (card
// drawn, tax, supplemental tax or miss, reshuffle) so the pair can follow it from across the
// hall, and the shared win or loss with its reason. It reads the summary's `coop` fields
// (docs/api.md, "The co-op game").

import { t } from "./i18n.js";
import { h, num, reducedMotion, tx } from "./dom.js";
import { outcomeDetail, outcomeHeadline, stepLine } from "./coop-words.js";

const STEP_MS = 1400; // the time each step of the assessor's turn stays the newest
const TICK_MS = 150;

// table id -> the assessor turn playing there: its move number, when its first step shows
// (performance.now() ms; -Infinity shows every step at once) and how many steps are drawn.
const playing = new Map();
let latest = [];
let redrawTile = () => {};
let timer = null;

// Called with every hall view before the tiles are drawn. A turn already there when the page
// opens shows at once; a new one plays step by step from `delay` ms on (after the dice).
export function followAssessor(tables, { first, delay }, redraw) {
  latest = tables;
  redrawTile = redraw;
  const now = performance.now();
  for (const summary of tables) {
    const last = summary.coop?.last_assessor_turn;
    if (!last || playing.get(summary.id)?.move === last.move) continue;
    const at = first || reducedMotion() ? -Infinity : now + delay;
    playing.set(summary.id, { move: last.move, at, drawn: -1 });
  }
  if (!timer) timer = setTimeout(tick, TICK_MS);
}

// Redraw a tile when its next step is due (and once more when the last one stops being the
// newest); stop when every turn has played.
function tick() {
  timer = null;
  let busy = false;
  for (const summary of latest) {
    const play = playing.get(summary.id);
    if (!play || !summary.coop?.last_assessor_turn) continue;
    const { stage, done } = progress(summary);
    if (stage !== play.drawn) redrawTile(summary.id);
    if (!done) busy = true;
  }
  if (busy) timer = setTimeout(tick, TICK_MS);
}

// How far the last assessor turn of a table has played: `shown` steps are on screen, the
// `newest` of them stands out (-1: none); `stage` changes whenever the drawing must.
function progress(summary) {
  const steps = summary.coop.last_assessor_turn?.steps ?? [];
  const play = playing.get(summary.id);
  const live = play && play.move === summary.coop.last_assessor_turn?.move && Number.isFinite(play.at);
  if (!live) return { shown: steps.length, newest: -1, stage: steps.length, done: true };
  const elapsed = performance.now() - play.at;
  const stage = elapsed < 0 ? -1 : Math.min(steps.length, Math.floor(elapsed / STEP_MS));
  return {
    shown: Math.min(steps.length, stage + 1),
    newest: stage >= 0 && stage < steps.length ? stage : -1,
    stage,
    done: stage >= steps.length,
  };
}

// The assessor as it stood after `shown` steps of its last turn: coins not yet paid, the
// card not yet assessed, the value still sought, the end not yet reached.
function asShown(coop, shown) {
  const steps = coop.last_assessor_turn?.steps ?? [];
  const state = {
    coins: coop.assessor.coins, assessed: [...coop.assessor.assessed], sought: coop.assessor.sought,
    finalRound: coop.final_round, outcome: coop.outcome,
  };
  const draws = steps.filter((step) => step.step === "draw");
  for (const step of steps.slice(shown)) {
    if (step.step === "draw" && (step.result === "tax" || step.result === "supplemental")) state.coins += step.amount;
    if (step.step === "draw" && step.result === "tax") state.assessed.pop();
    if (step.step === "final_round") state.finalRound = false;
    if (step.step === "end") state.outcome = null;
  }
  const hiddenDraw = steps.slice(shown).find((step) => step.step === "draw");
  if (hiddenDraw) state.sought = hiddenDraw.sought;
  else if (!state.outcome && !state.finalRound && state.sought === null && draws.at(-1)?.result !== "tax") {
    state.sought = draws.at(-1)?.sought ?? null; // the card it could not pay, before the end shows
  }
  return state;
}

export function coopTile(summary, { cardName, seatList, stateLine, landmarkCount }) {
  const coop = summary.coop;
  if (!coop) return [h("p", { class: "state" }, stateLine(summary)), seatList(summary)];
  const steps = coop.last_assessor_turn?.steps ?? [];
  const { shown, newest, stage } = progress(summary);
  const play = playing.get(summary.id);
  if (play) play.drawn = stage;
  const now = asShown(coop, shown);
  let top;
  if (now.outcome) top = banner(summary, cardName, landmarkCount);
  else if (shown < steps.length) top = h("p", { class: "state" }, t("The assessor is playing…"));
  else top = h("p", { class: "state" }, stateLine(summary));
  return [top, seatList(summary), assessorPanel(coop, now, cardName),
    h("div", { class: "turn-steps" }, turnSteps(summary, shown, newest, cardName))];
}

function banner(summary, cardName, landmarkCount) {
  const coop = summary.coop;
  return h("div", { class: "coop-outcome", "data-outcome": coop.outcome, role: "status" },
    h("p", { class: "headline" }, outcomeHeadline(coop, { you: false })),
    h("p", { class: "detail" }, outcomeDetail(summary, cardName, landmarkCount)));
}

function assessorPanel(coop, now, cardName) {
  let sought = null;
  if (now.finalRound && !now.outcome) sought = h("p", { class: "sought final" }, t("Final round: one more turn each."));
  else if (now.sought) sought = h("p", { class: "sought" }, tx("Value sought next: {n}", { n: h("span", { class: "big" }, num(now.sought)) }));
  const assessed = now.assessed.map((card, i) => h("li", {},
    h("span", { class: "value" }, num(i + 1)), " ", h("span", { class: "card" }, cardName(card))));
  return h("section", { class: "assessor", "aria-label": t("Tax Assessor") },
    h("div", { class: "figures" },
      h("p", { class: "purse" }, h("span", { class: "label" }, t("The assessor's coins")), " ",
        h("span", { class: "big" }, num(now.coins))),
      sought),
    assessed.length ? h("ol", { class: "assessed", "aria-label": t("Assessed taxes") }, assessed) : null,
    h("p", { class: "piles" }, tx("Assessor's deck {deck} · discards {discards}", {
      deck: num(coop.assessor.deck), discards: num(coop.assessor.discards),
    })),
    h("p", { class: "piles" }, tx("Market deck {deck} · discards {discards}", {
      deck: num(coop.market.deck), discards: num(coop.market.discards),
    })));
}

// Every step has its line from the start, the ones not yet due invisible, so the tile keeps
// its height while the turn plays; the newest step stands out for one step's time.
function turnSteps(summary, shown, newest, cardName) {
  const last = summary.coop.last_assessor_turn;
  const title = h("p", { class: "steps-title" }, t("The assessor's last turn"));
  if (!last) return [title, h("p", { class: "piles" }, t("The assessor plays after the second player's turn."))];
  return [title, h("ol", { class: "coop-steps", "data-move": last.move }, last.steps.map((step, i) => {
    const [kind, line] = stepLine(step, cardName);
    const due = i < shown;
    const classes = `step ${kind} ${due ? "shown" : "due-later"}${i === newest ? " newest" : ""}`;
    return h("li", { class: classes, "aria-hidden": due ? null : "true" }, line);
  }))];
}
