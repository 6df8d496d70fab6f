// The co-op Tax Assessor game in words, shared by the phone (play-coop.js), the hall screen
// (hall-coop.js) and the console's journal (organizer-tables.js): each step of the assessor's
// turn, and the end of the game, a headline that says won or lost and why and a line with the
// figures behind it. They read the view's `coop` fields (docs/api.md, "The co-op game").

import { t } from "./i18n.js";
import { h, num, tx } from "./dom.js";

// One step of the assessor's turn (`last_assessor_turn.steps`) as [a class for its line, the
// line]: the card drawn and what it meant, a reshuffle, the final round, the end.
export function stepLine(step, cardName) {
  const card = h("span", { class: "card" }, cardName(step.card));
  const amount = num(step.amount);
  const draws = {
    tax: () => tx("{card}: tax of {amount}", { card, amount }),
    supplemental: () => tx("{card}: supplemental tax of {amount}", { card, amount }),
    miss: () => tx("{card}: no tax ({n} sought)", { card, n: num(step.sought) }),
    unpaid: () => tx("{card}: the assessor cannot pay {amount}", { card, amount }),
  };
  if (step.step === "draw") return [step.result, draws[step.result]?.() ?? ""];
  if (step.step === "reshuffle") return ["reshuffle", tx("Reshuffled: {n} cards", { n: num(step.cards) })];
  if (step.step === "final_round") return ["final", t("Final round: one more turn each.")];
  if (step.step === "end") return [step.outcome === "lost" ? "unpaid" : "tax", t("The game is over.")];
  return ["", ""];
}

// The phone speaks to the pair ("You lost: ..."), the hall screen about them ("Lost: ...").
export function outcomeHeadline(coop, { you }) {
  const lines = you ? {
    cities_complete: t("You won together: both cities are complete!"),
    tax_unpaid: t("You lost: the assessor could not pay a tax."),
    final_round_over: t("You lost: the final round is over."),
  } : {
    cities_complete: t("Won together: both cities are complete!"),
    tax_unpaid: t("Lost: the assessor could not pay a tax."),
    final_round_over: t("Lost: the final round is over."),
  };
  return lines[coop.reason] ?? "";
}

// The figures: the tax the assessor could not pay and what it had, or how many landmarks
// the two cities had when the game ended.
export function outcomeDetail(summary, cardName, landmarkCount) {
  const coop = summary.coop;
  const built = summary.players.reduce((sum, player) => sum + player.landmarks.length, 0);
  const total = landmarkCount * summary.players.length;
  if (coop.reason === "tax_unpaid") {
    const unpaid = (coop.last_assessor_turn?.steps ?? []).find((step) => step.result === "unpaid");
    if (!unpaid) return null;
    return tx("{card} asked for a tax of {amount}; the assessor had {coins}.", {
      card: cardName(unpaid.card), amount: num(unpaid.amount), coins: num(coop.assessor.coins),
    });
  }
  if (coop.reason === "final_round_over") {
    return tx("The final round ended with {built} of {total} landmarks built.", { built: num(built), total: num(total) });
  }
  if (coop.reason === "cities_complete") {
    return tx("All {total} landmarks built, on turn {n}.", { total: num(total), n: num(summary.turn) });
  }
  return null;
}
