// The page's language for the strings the JS shows: the same catalogs as the Jinja pages
// (companion/translations), fetched once from /i18n/<lang>.json, only the areas the page names
// in <html data-i18n-areas> if it does (the phone: a third of them). English is the msgid itself.

export const lang = document.documentElement.lang || "en";
const areas = document.documentElement.dataset.i18nAreas;

let messages = {};
if (lang !== "en") {
  try {
    const only = areas ? `?areas=${encodeURIComponent(areas)}` : "";
    const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json${only}`);
    if (response.ok) messages = await response.json();
  } catch {
    messages = {}; // offline: English it is, the page still works
  }
}

// t(msgid, {n: 3}): the translation of msgid with {name} placeholders filled in.
export function t(msgid, params = {}) {
  const text = messages[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A sentence for each refusal code the server sends (companion/rules/errors.py,
// companion/hall/service.py, docs/api.md).
const REFUSALS = {
  "rule/not_your_turn": t("It is not your turn."),
  "rule/wrong_phase": t("That is not possible at this point of the turn."),
  "rule/cannot_afford": t("You do not have enough coins for that."),
  "rule/sold_out": t("That card is sold out."),
  "rule/already_own": t("You already own that one."),
  "rule/unknown_card": t("There is no such card."),
  "rule/already_built": t("You have already built this turn."),
  "rule/bad_dice": t("Those dice are not valid."),
  "rule/invalid_choice": t("That choice is not possible."),
  "rule/game_over": t("The game is over."),
  "rule/finished": t("You have finished and no longer play."),
  "rule/not_face_up": t("That card is not face up in the supply."),
  "rule/invalid": t("The rules do not allow that."),
  "move/invalid": t("The rules do not allow that."),
  "move/stale": t("The table changed; check and tap again."),
  "seat/unknown_token": t("This join link is not (or no longer) valid. Ask the organizer for your seat's card."),
  "table/not_running": t("The table is not running right now."),
  "table/hall_roll": t("This table rolls with the hall: wait for the hall roll."),
  "table/not_started": t("The table has not started yet."),
  "table/started": t("The table has already started."),
  "request/invalid": t("That request is not valid."),
  "request/malformed": t("That request is not valid."),
  "auth/not_a_seat": t("Only a player's phone can do that."),
  "auth/organizer": t("This needs the organizer."),
  "server/error": t("Something went wrong on the server; nothing changed. Try again."),
  "server/unavailable": t("The server cannot save moves right now. Nothing changed; try again in a moment."),
  "http/413": t("The request is too large."),
  "client/offline": t("Not connected. Try again when the connection is back."),
  "client/timeout": t("No answer from the server. Try again."),
};

// The translated sentence for a refusal, or the server's own (English) message for a code
// this page does not know yet.
export function refusal(code, message = "") {
  return REFUSALS[code] || message || t("That is not possible.");
}
