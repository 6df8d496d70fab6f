// What the tournament's projector and phone pages share: the public view's words (a round's
// name, the stage) and fetching the view again (companion/web/tournament.py, `public`).

import { t } from "./i18n.js";

export const data = () => JSON.parse(document.getElementById("page-data").textContent);

export function roundName(number, stage) {
  if (stage === "final") return t("Final");
  if (stage === "semi-final") return t("Semi-finals");
  return t("Round {n}", { n: number });
}

// The line under the title: what is being played, or what comes next.
export function stageLine(view) {
  if (view.stage === "registration") return t("Registration: the seating appears at the start.");
  if (view.stage === "done") return t("The tournament is over.");
  const current = view.current;
  if (current && current.open) return t("{round} is being played", { round: roundName(current.round, current.stage) });
  if (view.seating) return t("Next: {round}", { round: roundName(view.seating.round, view.seating.stage) });
  return t("Next: the final");
}

export async function refresh(eventId) {
  const response = await fetch(`/api/events/${encodeURIComponent(eventId)}/tournament/public`);
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}
