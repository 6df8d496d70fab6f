// The co-op Tax Assessor's part of the phone (templates/play/coop.html): the market row with
// buy buttons, the assessor's coins, its array and the value sought next, its last turn played
// step by step, and the shared win or loss (the gift of coins is a choice the prompt asks,
// play.js). It draws the view's `coop` fields (docs/api.md, "The co-op game"); play.js owns the socket and sends the moves.

import { t } from "./i18n.js";
import { $, activation, fill, h, num, reducedMotion, tx } from "./dom.js";
import { act, cardName, cards, data, landmarkCount } from "./play.js";
import { buildCard, isOpen, optionsByCard, turnReason } from "./play-build.js";
import { outcomeDetail, outcomeHeadline, stepLine } from "./coop-words.js";

const STEP_MS = 700; // the assessor's steps appear one after another, as if drawn by hand

let view = data.view;
let shownTurn = null; // the assessor turn whose steps are on screen (its move number)
let stepTimer = null;
let loaded = false; // the first drawing shows an old turn at once; later ones play step by step
let endedBefore = false; // the outcome was already shown (scroll to it only when it arrives)

document.addEventListener("companion:view", (event) => {
  view = event.detail;
  draw();
});

function draw() {
  const coop = view.coop;
  for (const id of ["coop", "coop-market"]) $(id).hidden = !coop;
  if (!coop) return;
  drawOutcome(coop);
  drawAssessor(coop);
  drawRow(coop);
  drawSteps(coop);
}

// The win or loss screen: the banner says why with the figures, and the turn line and the
// controls go (coop.css hides them under body.coop-over, also when play.js redraws them).
function drawOutcome(coop) {
  const box = $("coop-outcome");
  document.body.classList.toggle("coop-over", Boolean(coop.outcome));
  box.hidden = !coop.outcome;
  box.dataset.outcome = coop.outcome ?? "";
  $("coop-outcome-headline").textContent = coop.outcome ? outcomeHeadline(coop, { you: true }) : "";
  fill($("coop-outcome-detail"), coop.outcome ? outcomeDetail(view, cardName, landmarkCount) : null);
  // The game just ended, maybe while the player was down at the build list: back to the top,
  // where the coins, the last notice and the banner are.
  if (coop.outcome && loaded && !endedBefore) {
    window.scrollTo({ top: 0, behavior: reducedMotion() ? "auto" : "smooth" });
  }
  endedBefore = Boolean(coop.outcome);
}

function drawAssessor(coop) {
  const assessor = coop.assessor;
  $("coop-coins").textContent = assessor.coins;
  let sought = "";
  if (coop.final_round && !coop.outcome) sought = t("Final round: one more turn each.");
  else if (assessor.sought) sought = t("Value sought next: {n}", { n: assessor.sought });
  $("coop-sought").textContent = sought;
  fill($("coop-piles"), tx("Assessor's deck {deck} · discards {discards}", {
    deck: num(assessor.deck), discards: num(assessor.discards),
  }));
  fill($("coop-array"), assessor.assessed.map((card, i) => h("li", {}, num(i + 1), " ", cardName(card))));
}

// The row's cards with their options of `builds`: open, or closed with the reason, under the
// card, or once above the base list (#build-note) when it is the turn's. (A row card missing
// from `builds` is closed with a code this page does not know: the general sentence.)
function drawRow(coop) {
  const options = optionsByCard(view);
  const row = coop.market.row.map((id) => [cards.get(id), options.get(id) ?? { card: id, why: "unlisted" }]);
  const shared = turnReason(view.builds);
  const piles = t("Market deck {deck} · discards {discards}", coop.market);
  const open = !shared && row.some(([, option]) => isOpen(option));
  $("coop-market-note").textContent = open ? `${piles} · ${t("Tap a card to buy it.")}` : piles;
  fill($("coop-row"), row.map(([card, option], i) => buildCard(card, option, num(activation(card.activation)), act,
    { reasonId: shared ? "build-note" : `why-row-${i}`, shared })));
}

function drawSteps(coop) {
  const last = coop.last_assessor_turn;
  const list = $("coop-steps");
  if (!last) {
    fill(list, h("li", { class: "note" }, t("The assessor plays after the second player's turn.")));
    shownTurn = null;
    return;
  }
  if (last.move === shownTurn) return; // already shown (or being shown)
  shownTurn = last.move;
  clearTimeout(stepTimer);
  const lines = last.steps.map((step) => {
    const [kind, line] = stepLine(step, cardName);
    return h("li", { class: kind }, line);
  });
  if (!loaded || reducedMotion()) {
    fill(list, lines);
    return;
  }
  fill(list);
  const reveal = (i) => {
    if (i >= lines.length) { stepTimer = null; return; }
    list.append(lines[i]);
    stepTimer = setTimeout(() => reveal(i + 1), STEP_MS);
  };
  reveal(0);
}

draw();
loaded = true;
