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
  "event/not_started": t("The clock starts with the first roll."),
  "table/no_roll_due": t("No seat of this table is waiting to roll."),
  "event/paused": t("The clock is paused already."),
  "event/not_paused": t("The clock is not paused."),
  "event/production_ended": t("This turn's production has ended already."),
  "event/no_schedule": t("The turns have no time limit: set a schedule first."),
  "event/ended": t("The event has ended: the hall rolls no more."),
  "event/over": t("The game is over: the hall rolls no more."),
  "catan/claims_pending": t("A victory claim is still being checked: verify or reject it, then roll."),
  "rule/bad_schedule": t("The schedule is not valid: each step is a first turn and 10 to 900 seconds, from turn 1, the turns increasing."),
  "table/full": t("This table is full."),
  "table/too_few": t("A table needs at least two players."),
  "table/status": t("The table cannot change to that status now."),
  "table/nothing_to_undo": t("This table has no move to undo."),
  "undo/recorded": t("The next game of the campaign has started from this win: it cannot be undone any more."),
  "table/unknown": t("There is no such table."),
  "event/unknown": t("There is no such event."),
  "http/401": t("This needs the organizer."),
  // A correction is the only organizer request the rules refuse (docs/api.md).
  "rule/invalid_choice": t("A correction is a whole number of coins other than 0, with a reason, for a player at this table."),
  "rule/cannot_afford": t("That player does not have that many coins: a correction never takes a balance below zero."),
  "roll/too_soon": t("The hall rolled a moment ago."),
  "roll/nothing_to_undo": t("There is no hall roll to undo: the last one is undone already, or none was made."),
  "roll/moved_on": t("The last hall roll cannot be undone: a table has moved on since."),
  "table/out_of_step": t("A table changed on another server meanwhile: check it and try again."),
};

// Refusals that are news, not mistakes (the roll that ends the game): said as a status.
const NEWS = new Set(["event/over"]);
export const refusalKind = (error) => (error instanceof Refused && NEWS.has(error.code) ? "ok" : "error");

// Refusals whose server message says more than the sentence (it names the tables that moved
// on), in the page's language: the console shows that message as a sentence.
const DETAILED = new Set(["roll/moved_on"]);
const asSentence = (text) => `${text.charAt(0).toLocaleUpperCase(lang)}${text.slice(1)}.`;

// The sentence to show for a failed call. A generic "not valid" gets the server's own detail
// (which names the field, in the page's language) after it, so the organizer can fix the form.
export function explain(error) {
  if (!(error instanceof Refused)) return refusal("server/error");
  const known = ORGANIZER_REFUSALS[error.code];
  if (DETAILED.has(error.code) && error.serverMessage) return asSentence(error.serverMessage);
  if (known) return known;
  const sentence = refusal(error.code, error.serverMessage);
  if (error.code.startsWith("request/") && error.serverMessage) return `${sentence} (${error.serverMessage})`;
  return sentence;
}

// ------------------------------------------------------------------ results where they happen

// The console's one message box (#notice) goes next to the control whose result it says: into
// the form that was sent, or after the group marked data-notice-after that holds the button
// (a refused correction halfway down the page used to show its error at the top).
let box = null; // kept: it may sit in a card that is closed (out of the document) for a while

export function notice(text, kind = "error", control = null) {
  box ??= document.getElementById("notice");
  const form = control && control.closest("form");
  const group = control && control.closest("[data-notice-after]");
  if (form) form[form.hidden ? "after" : "append"](box); // a form hidden meanwhile: beside it
  else if (group) group.after(box);
  else if (control) control.after(box);
  else document.getElementById("main").prepend(box); // no control: the top of the page
  box.textContent = text;
  box.dataset.kind = kind;
  box.setAttribute("role", kind === "error" ? "alert" : "status");
  box.hidden = !text;
}

// Run an API call and say its result next to `at` (the form or button that asked); a refusal is
// said in words instead of failing silently. Returns the answer, or null when refused. A change
// says `done` (or clears the last message); a look-up leaves the last message standing.
// `refused`: the caller's own sentence for a refusal code, where it knows more (code -> text).
export async function act(method, path, body, { done = "", at = null, refused = {} } = {}) {
  try {
    const answer = await call(method, path, body);
    if (method !== "GET") notice(done, "ok", at);
    return answer;
  } catch (error) {
    notice((error instanceof Refused && refused[error.code]) || explain(error), refusalKind(error), at);
    return null;
  }
}
