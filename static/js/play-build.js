// The phone's build lists: the seat view's `builds` (docs/api.md), every card of the market open
// or closed with the rules' reason (companion/rules/machi_koro/options.py, `build_refusal`),
// drawn as they come. An option is `{card}` when open, `{card, why}` when closed (and `short`
// for missing coins); the card's kind, cost, colour and name come from the page's card list.
// Nothing here decides what may be built; a tap asks to confirm, and the server judges the
// move. play.js draws the base list, play-coop.js the co-op market row.

import { t } from "./i18n.js";
import { $, activation, fill, h, num, tx } from "./dom.js";

export const coinWords = (n) => (n === 1 ? t("1 coin") : tx("{n} coins", { n: num(n) }));

// Reasons that close every card at once: said once, above the list.
const TURN_WORDS = {
  game_over: () => t("The game is over."),
  not_running: () => t("The table is not running right now."),
  not_your_turn: () => t("On your turn, after the roll."),
  not_build_phase: () => t("After the roll."),
  built_this_turn: () => t("You have already built this turn."),
};

// A card's own reason, said under it.
const CARD_WORDS = {
  built: () => t("Built."),
  sold_out: () => t("Sold out."),
  not_shown: () => t("Not in the market row."),
  own_one: () => t("You own one already."),
  unknown: () => t("There is no such card."),
  coins: (option) => (option.short === 1 ? t("1 more coin needed.")
    : t("{n} more coins needed.", { n: option.short })),
};

// The sentence for a closed option's `why` (a code this page does not know: a general one).
function whyWords(option) {
  const words = TURN_WORDS[option.why] ?? CARD_WORDS[option.why];
  return words ? words(option) : t("Not possible now.");
}

// The turn's reason when every option shares it (not my build phase), else null.
export function turnReason(builds) {
  const why = builds[0]?.why;
  return why in TURN_WORDS && builds.every((option) => option.why === why) ? whyWords(builds[0]) : null;
}

// An option is open when it has no reason to be closed.
export const isOpen = (option) => !option.why;

export const optionsByCard = (view) => new Map((view.builds ?? []).map((option) => [option.card, option]));

// The base build list (#build): the market's cards but the landmarks built and the cards the
// market does not show (the co-op row shows its own), each with its reason when closed (before
// the table starts, all of them closed `not_running`).
export function drawBuilds(view, cards, send) {
  const builds = view.builds ?? [];
  const shared = builds.length ? turnReason(builds) : t("The table is not running right now.");
  $("build-note").textContent = shared ?? t("Tap a card to build it.");
  fill($("market"), builds.filter((option) => option.why !== "built" && option.why !== "not_shown")
    .map((option) => {
      const card = cards.get(option.card);
      const landmark = card.kind === "landmark";
      const details = landmark ? t("Landmark") : num(activation(card.activation));
      const stock = landmark ? "" : t("{n} left", { n: view.supply?.[option.card] ?? 0 });
      return buildCard(card, option, [details, stock ? ` · ${stock}` : ""], send, {
        reasonId: shared ? "build-note" : `why-${option.card}`, shared, colour: landmark ? "landmark" : card.colour,
      });
    }));
}

// A card of a build list: a button with its name, cost and `details` (a tap asks to confirm
// the build), and under it, when it is closed for its own reason, that reason.
export function buildCard(card, option, details, send, { reasonId, shared = null, colour = card.colour }) {
  const open = isOpen(option);
  const button = h("button", {
    type: "button", class: "build-card", disabled: !open, "data-card": card.id,
    "aria-describedby": open ? null : reasonId,
    onclick: () => confirmBuild(card, send),
  },
  h("span", { class: "name" }, card.name),
  h("span", { class: "cost" }, coinWords(card.cost)),
  h("span", { class: "meta" }, details));
  const why = open || shared ? null : h("p", { class: "why", id: reasonId }, whyWords(option));
  return h("li", { class: `card ${colour ?? "landmark"}` }, button, why);
}

// ------------------------------------------------------------------ the confirmation

let pending = null; // the card waiting for the build confirmation, and how to send its move

function confirmBuild(card, send) {
  pending = { card, send };
  $("confirm-text").textContent = card.cost === 1 ? t("Build {card} for 1 coin?", { card: card.name })
    : t("Build {card} for {cost} coins?", { card: card.name, cost: card.cost });
  $("confirm").showModal();
}

$("confirm-cancel").addEventListener("click", () => $("confirm").close());
$("confirm-ok").addEventListener("click", async () => {
  $("confirm").close();
  const asked = pending;
  pending = null;
  if (!asked) return;
  await asked.send({ kind: "build", card: asked.card.id }, t("Built: {card}.", { card: asked.card.name }));
});
