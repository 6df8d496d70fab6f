// The phone's build lists: the seat view's `builds` (docs/api.md), every card of the market open
// or closed with the rules' reason (companion/rules/machi_koro/options.py, `build_refusal`),
// drawn as they come. `builds` is `{why, cards}`: `why` the turn's reason, said once above the
// list (null in my build phase), and each of `cards` `{card}`, or `{card, why}` with the card's
// own reason (and `short` for missing coins; under the turn's reason only `built`, which leaves
// the card out). A card is open when neither says why. The card's kind, cost, colour and name
// come from the page's card list. Nothing here decides what may be built; a tap asks to
// confirm, and the server judges the move. play.js draws the base list, play-coop.js the co-op
// market row.

import { t } from "./i18n.js";
import { $, activation, fill, h, num, tx } from "./dom.js";

export const coinWords = (n) => (n === 1 ? t("1 coin") : tx("{n} coins", { n: num(n) }));

// Reasons that close every card at once: said once, above the list.
const TURN_WORDS = {
  game_over: () => t("The game is over."),
  finished: () => t("You have finished: no more builds."),
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

// The sentence for a closed card's `why` (a code this page does not know: a general one).
function whyWords(option) {
  const words = CARD_WORDS[option.why];
  return words ? words(option) : t("Not possible now.");
}

// The sentence for the turn's reason of `builds` (said once, above the list), or null in my
// build phase (no `builds` at all: the table is not running).
export function turnReason(builds) {
  if (!builds) return t("The table is not running right now.");
  if (!builds.why) return null;
  const words = TURN_WORDS[builds.why];
  return words ? words() : t("Not possible now.");
}

// A card is open when it has no reason to be closed (and the turn has none: see turnReason).
export const isOpen = (option) => !option.why;

export const optionsByCard = (view) => new Map((view.builds?.cards ?? []).map((option) => [option.card, option]));

// Whether the base list shows a card: not a built landmark, nor an establishment the market does
// not show (the co-op row shows its own); with the variable supply (RULES.md 13) only the
// face-up piles, like the table's own market: a kind still in the draw pile is not offered.
function listed(view, card, option) {
  if (option.why === "built" || option.why === "not_shown") return false;
  return !view.variable_supply || card.kind === "landmark" || (view.supply?.[card.id] ?? 0) > 0;
}

// A card's stock, "{n} left": none for a landmark or before the deal.
function stockWords(view, card) {
  if (card.kind === "landmark" || view.phase === "setup") return "";
  return t("{n} left", { n: view.supply?.[card.id] ?? 0 });
}

// The base build list (#build): the cards `listed`, each with its own reason when closed, or
// the turn's above them all (before the table starts, `not_running`).
export function drawBuilds(view, cards, send) {
  const shared = turnReason(view.builds);
  $("build-note").textContent = shared ?? t("Tap a card to build it.");
  fill($("market"), (view.builds?.cards ?? []).filter((option) => listed(view, cards.get(option.card), option))
    .map((option) => {
      const card = cards.get(option.card);
      const landmark = card.kind === "landmark";
      const details = landmark ? t("Landmark") : num(activation(card.activation));
      const stock = stockWords(view, card);
      // the variable supply: how many of its kind are still in the draw pile (Yucata's "(n)")
      const more = view.variable_supply && !landmark ? t("{m} in the draw pile", { m: view.draw?.[card.id] ?? 0 }) : null;
      return buildCard(card, option, [details, stock ? ` · ${stock}` : ""], send, {
        more,
        reasonId: shared ? "build-note" : `why-${option.card}`, shared, colour: landmark ? "landmark" : card.colour,
      });
    }));
}

// A name with a word of 14 letters or more ("Bedrijvencomplex") is set smaller: a half-width
// tile breaks such a word mid-word otherwise (no hyphenation dictionary offline).
const longWord = (name) => name.split(/\s+/).some((word) => word.length >= 14);

// A card of a build list: a button with its name, cost, `details` and `more` on a line of its
// own (a tap asks to confirm the build), and under it, when it is closed for its own reason,
// that reason; `shared` is the turn's reason (turnReason), which closes it too.
export function buildCard(card, option, details, send, { reasonId, shared = null, colour = card.colour, more = null }) {
  const open = !shared && isOpen(option);
  const button = h("button", {
    type: "button", class: "build-card", disabled: !open, "data-card": card.id,
    "aria-describedby": open ? null : reasonId,
    onclick: () => confirmBuild(card, send),
  },
  h("span", { class: longWord(card.name) ? "name long" : "name" }, card.name),
  h("span", { class: "cost" }, coinWords(card.cost)),
  h("span", { class: "meta" }, details),
  more ? h("span", { class: "meta draw" }, more) : null);
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
