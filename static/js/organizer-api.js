// The organizer API (docs/api.md) from the console: JSON in, JSON out, refusals as Refused.
// The browser is signed in by its session cookie, so no key is ever held by the page.

import { lang, refusal, t } from "./i18n.js";

export class Refused extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
    this.serverMessage = message || "";
  }
}

export async function call(method, path, body) {
  // A refusal's detail comes in the page's language: the server reads its lang cookie, else this.
  const options = {
    method, credentials: "same-origin", headers: { Accept: "application/json", "Accept-Language": lang },
  };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Refused("client/offline", "");
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (!response.ok) {
    throw new Refused((answer && answer.code) || `http/${response.status}`, answer && answer.message);
  }
  return answer;
}

// Refusals only the organizer meets; the others are in i18n.js.
const ORGANIZER_REFUSALS = {
  "table/full": t("This table is full."),
  "table/too_few": t("A table needs at least two players."),
  "table/status": t("The table cannot change to that status now."),
  "table/nothing_to_undo": t("This table has no move to undo."),
  "table/unknown": t("There is no such table."),
  "event/unknown": t("There is no such event."),
  "http/401": t("This needs the organizer."),
  // A correction is the only organizer request the rules refuse (docs/api.md).
  "rule/invalid_choice": t("A correction is a whole number of coins other than 0, with a reason, for a player at this table."),
  "rule/cannot_afford": t("That player does not have that many coins: a correction never takes a balance below zero."),
};

// The sentence to show for a failed call. A generic "not valid" gets the server's own detail
// (which names the field, in the page's language) after it, so the organizer can fix the form.
export function explain(error) {
  if (!(error instanceof Refused)) return refusal("server/error");
  const known = ORGANIZER_REFUSALS[error.code];
  if (known) return known;
  const sentence = refusal(error.code, error.serverMessage);
  if (error.code.startsWith("request/") && error.serverMessage) return `${sentence} (${error.serverMessage})`;
  return sentence;
}
