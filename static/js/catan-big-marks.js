// What the big Catan event's hall screen and the console's Catan part both show: the teams'
// symbols and words, and what decided a win, in words.

import { diceSum } from "./dom.js";
import { t } from "./i18n.js";
import { svg } from "./hall-chart.js";

// A sun: a disc and twelve rays. A moon: a crescent. Drawn, so a laptop needs no font for them;
// the team's word always goes with its symbol (nothing told by colour or shape alone).
export function teamSymbol(team, className = "symbol") {
  if (team === "moon") {
    return svg("svg", { class: `${className} moon`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
      svg("path", { d: "M48.7 10 A40 40 0 1 0 86.4 66.6 A34 34 0 0 1 48.7 10 Z", class: "body" }));
  }
  const rays = [];
  for (let i = 0; i < 12; i += 1) {
    const angle = (i * Math.PI) / 6;
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    rays.push(svg("line", { x1: 50 + 30 * c, y1: 50 + 30 * s, x2: 50 + 45 * c, y2: 50 + 45 * s, class: "ray" }));
  }
  return svg("svg", { class: `${className} sun`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    ...rays, svg("circle", { cx: 50, cy: 50, r: 22, class: "body" }));
}

export const teamWord = (team) => (team === "moon" ? t("Moon team") : t("Sun team"));

// What set the winner above the other claims of the turn (the event view's `decided_by`).
const DECIDED_BY = {
  points: () => t("the most points"),
  resources: () => t("more resource cards in hand"),
  grain: () => t("more grain"),
  ore: () => t("more ore"),
  brick: () => t("more brick"),
  wood: () => t("more wood"),
  wool: () => t("more wool"),
  registration: () => t("the earlier registration"),
};

export const decidedWords = (decidedBy) => DECIDED_BY[decidedBy]?.() ?? String(decidedBy ?? "");

// A cup, drawn: a laptop may have no emoji font.
export const trophy = () => svg("svg", { class: "trophy", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
  svg("path", { d: "M6 2h12v5a6 6 0 0 1-12 0z" }),
  svg("path", { d: "M6 4H3.5v2.5A3.5 3.5 0 0 0 7 10M18 4h2.5v2.5A3.5 3.5 0 0 1 17 10", class: "handles" }),
  svg("rect", { x: 11, y: 12, width: 2, height: 5 }),
  svg("rect", { x: 7, y: 17, width: 10, height: 4, rx: 1 }));

// What a turn announces (its `rules["catan-big"]` turn view and follow-up dice): the discard
// check on a 7, the robbers' instruction (from turn 16 a 7 brings the robbers' roll, whose dice
// go with it). Each {kind, title, text, dice}.
export function announcements(said, turn) {
  const found = [];
  if (!said || !turn) return found;
  if (said.discard) {
    found.push({ kind: "discard", title: t("Discard check"),
      text: t("A 7: everyone with 8 or more resource cards discards half of them, rounded down."), dice: [] });
  }
  const robber = said.robber;
  const dice = turn.follow_up ?? [];
  if (robber) {
    const n = robber.number ?? diceSum(dice);
    const text = {
      stay: t("The robbers stay where they are."),
      move: t("Robbers' roll {n}: every robber moves to the tile {n} in its start area; no card is stolen.", { n }),
      move_one: t("Robbers' roll {n}: one robber goes to the {n}; the other stays on or returns to its desert. No card is stolen.", { n }),
      desert: t("Robbers' roll {n}: every robber returns to its desert.", { n }),
    }[robber.action] ?? "";
    found.push({ kind: "robber", title: t("Robbers"), text, dice: robber.action === "stay" ? [] : dice });
  } else if (said.discard && dice.length === 0 && turn.number >= 16) {
    found.push({ kind: "robber", title: t("Robbers"), text: t("Wait for the robbers' roll."), dice: [] });
  }
  return found;
}
