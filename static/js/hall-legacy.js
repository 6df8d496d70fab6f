// A Machi Koro Legacy game's tile on the hall screen (hall.js draws the other tiles): each
// player's coins, three landmarks by letter (a built one filled, with a star) and whether they
// have contributed to the community landmark; the last roll's coin movements, and the cards of
// it that the organizer plays by hand. It reads the summary's `legacy` fields (docs/api.md).

import { lang, t } from "./i18n.js";
import { bdi, diceSum, h, num, paidWords, tx } from "./dom.js";

const named = (texts) => texts?.[lang] || texts?.en || "";

// `stateLine` and `winBanner` are hall.js's, as the base game's tile says them.
export function legacyTile(summary, { stateLine, winBanner }) {
  const legacy = summary.legacy;
  const won = Number.isInteger(summary.winner);
  if (!legacy) return [won ? winBanner(summary) : h("p", { class: "state" }, stateLine(summary))];
  // the tile's names: the establishments' (`card_names`), the landmarks', the community landmark's
  const names = new Map(Object.entries(legacy.card_names ?? {}).map(([id, texts]) => [id, named(texts)]));
  for (const lm of legacy.landmarks.flat()) names.set(lm.id, named(lm.names));
  names.set(legacy.community.id, named(legacy.community.names));
  const cardName = (id) => names.get(id) ?? id;
  const state = won ? winBanner(summary) : h("p", { class: "state" }, stateLine(summary, cardName));
  const contributed = new Set(legacy.community.contributed ?? []);
  const lines = summary.entries.map((entry) => (entry.to_seat === "bank" && entry.card === legacy.community.id
    ? tx("{name} contributed to {card}", { name: bdi(entry.from), card: cardName(entry.card) })
    : paidWords(entry, cardName)));
  const shown = lines.slice(0, 4);
  if (lines.length > shown.length) shown.push(t("and {n} more", { n: lines.length - shown.length }));
  return [
    state,
    summary.dice.length ? h("p", { class: "rolled" }, tx("Rolled {sum}", { sum: num(diceSum(summary.dice)) })) : null,
    h("ul", { class: "seats legacy-seats" }, summary.players.map((player) => h("li", {
      class: player.seat === summary.active && summary.phase !== "finished" ? "active" : "",
    }, h("span", { class: "name" }, bdi(player.name)),
    h("span", { class: "figures" },
      h("span", { class: "legacy-letters" }, (legacy.landmarks[player.seat] ?? []).map((lm) => [h("span", {
        class: lm.built ? "built" : "todo",
      }, lm.letter, lm.built ? "★" : "☆", h("span", { class: "visually-hidden" }, lm.built ? ` ${t("built")}` : ` ${t("not built")}`)), " "])),
      h("span", { class: contributed.has(player.seat) ? "legacy-given yes" : "legacy-given no" },
        contributed.has(player.seat) ? "✓" : "○",
        h("span", { class: "visually-hidden" }, contributed.has(player.seat) ? t("has contributed") : t("has not contributed"))),
      h("span", { class: "coins" }, num(player.coins ?? "–")))))),
    h("ul", { class: "paid" }, shown.map((line) => h("li", {}, line))),
    (legacy.manual ?? []).length ? h("p", { class: "legacy-by-hand" }, tx("By hand: {cards}", {
      cards: bdi(legacy.manual.map((line) => cardName(line.card)).join(", ")),
    })) : null,
  ];
}
