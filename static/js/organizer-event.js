// The console's current event and its hall view, for the console's parts (the clock panel,
// a ruleset's part in templates/organizer/parts/) that organizer.js does not draw: they draw
// each view organizer.js draws (its `console-view` event: the event's view from the API when
// it is chosen, then from the `organizer` Socket.IO room), and ask the organizer API what they
// change. A refusal is said with the server's message.

import { $ } from "./dom.js";
import { call, explain, notice, Refused, refusalKind } from "./organizer-api.js";

const data = JSON.parse($("console-data").textContent);
// The server's clock minus this one's: a turn's deadline is the server's epoch ms.
const skew = Number.isFinite(data.now_ms) ? data.now_ms - Date.now() : 0;
export const serverNow = () => Date.now() + skew;

const listeners = new Set();
let view = null;

export const currentView = () => view;
export const currentEvent = () => (view ? String(view.event.id) : null);
export const eventPath = (action = "") => `/api/events/${encodeURIComponent(currentEvent())}${action}`;

// Call `draw(view)` with every hall view of the current event (null before the first).
export function onView(draw) {
  listeners.add(draw);
  draw(view);
}

document.addEventListener("console-view", (event) => {
  view = event.detail;
  for (const draw of listeners) draw(view);
});

// The sentence for a refusal, with the server's own message after it when it says more (it
// names the field or the value); `own`: this part's sentences by code.
export function refusalWords(error, own = {}) {
  const sentence = (error instanceof Refused && own[error.code]) || explain(error);
  const detail = error instanceof Refused ? error.serverMessage : "";
  return detail && !sentence.includes(detail) ? `${sentence} (${detail})` : sentence;
}

// POST a change of the current event or of one of its tables; the result is said next to `at`
// (the new view comes by the socket). Answers the server's answer, or null when refused.
export async function change(path, body, { done = "", at = null, own = {} } = {}) {
  try {
    const answer = await call("POST", path, body);
    notice(done, "ok", at);
    return answer;
  } catch (error) {
    notice(refusalWords(error, own), refusalKind(error), at);
    return null;
  }
}

// "1:05": a time left in minutes and seconds.
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
