// The organizer API (docs/api.md) from the console: JSON in, JSON out, refusals as Refused.
// The browser is signed in by its session cookie, so no key is ever held by the page.

import { refusal, t } from "./i18n.js";

export class Refused extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
    this.serverMessage = message || "";
  }
}

export async function call(method, path, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
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
};

// The sentence to show for a failed call. A generic "not valid" gets the server's own detail
// (which names the field) after it, so the organizer can fix the form.
export function explain(error) {
  if (!(error instanceof Refused)) return refusal("server/error");
  const known = ORGANIZER_REFUSALS[error.code];
  if (known) return known;
  const sentence = refusal(error.code, error.serverMessage);
  if (error.code.startsWith("request/") && error.serverMessage) return `${sentence} (${error.serverMessage})`;
  return sentence;
}
