// A ruleset's own words for the console's general ones: the console data's `console_words`
// (each ruleset's page data, translated by the server; web knows no game), so a Catan event
// speaks of boards, Sun and Moon where a Machi Koro event speaks of tables, seats and coins.

import { t } from "./i18n.js";

const data = JSON.parse(document.getElementById("console-data").textContent);
const words = data.console_words ?? {};

// `msgid` as `ruleset` says it (with its {placeholders} filled), else the console's own word.
export function said(ruleset, msgid, params = {}) {
  const own = words[ruleset]?.[msgid];
  if (own === undefined || own === "") return t(msgid, params);
  return own.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Whether `ruleset` has its own word for `msgid`; `hides`: whether it hides what `msgid` names
// (Catan's boards have no coins to correct).
export const hasWord = (ruleset, msgid) => Boolean(words[ruleset]?.[msgid]);
export const hides = (ruleset, msgid) => words[ruleset]?.[msgid] === "";

// The ruleset most of an event's tables play (null without tables): its words are the event's.
export function eventRuleset(tables) {
  const count = new Map();
  for (const table of tables ?? []) count.set(table.ruleset, (count.get(table.ruleset) ?? 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

// A pasted line of a table's options, "A red blue" (or a spreadsheet's columns): each word is
// given to the first of the ruleset's choice options (`specs`, in order) that has it as a
// choice, by its id or its name in the page's language. Answers {options} or {unknown: word}.
export function lineOptions(line, specs) {
  const options = {};
  for (const word of line.split(/[\s,;\t]+/).filter(Boolean)) {
    const wanted = word.toLocaleLowerCase();
    const spec = specs.find((s) => s.kind === "choice" && !(s.name in options)
      && s.choices.some((c) => c.toLocaleLowerCase() === wanted || t(c).toLocaleLowerCase() === wanted));
    if (!spec) return { unknown: word };
    options[spec.name] = spec.choices.find((c) => c.toLocaleLowerCase() === wanted || t(c).toLocaleLowerCase() === wanted);
  }
  return { options };
}
