// The console's overview of an event's tables (issue 16): a compact row per table with what it
// is doing (choosing, building, ready to roll, paused, game over, set up, ended), found by a
// player's or a table's name and filtered by that state; a table's name opens its details.
// With 275 tables the old console was one column of full cards, over 150,000 px long.

import { t } from "./i18n.js";
import { bdi, h, num } from "./dom.js";
import { eventRuleset, said } from "./organizer-words.js";

// What a table is doing now: the key of its badge and of the filters.
export function tableState(table) {
  if (table.status === "setup") return "setup";
  if (table.result || (table.winner !== null && table.winner !== undefined)) return "over";
  if (table.status === "ended") return "ended";
  if (table.status === "paused") return "paused";
  if (table.waiting) return "choosing";
  if (table.phase === "build") return "building";
  return "ready";
}

const STATE_NAMES = {
  choosing: t("Choosing"), building: t("Building"), ready: t("Ready to roll"), paused: t("Paused"),
  over: t("Game over"), setup: t("Set up"), ended: t("Ended"),
};
// The filters, in the order the organizer meets them in an evening.
const FILTERS = [
  ["all", t("All tables")], ["busy", t("Still choosing or building")], ...Object.entries(STATE_NAMES),
];
const BUSY = new Set(["choosing", "building"]);

// The hall-roll tables whose turn is still open: a choice waits, or the active player may build.
// The next hall roll closes their turns with the defaults.
export function openTurns(tables) {
  const count = { choosing: 0, building: 0 };
  for (const table of tables) {
    const state = tableState(table);
    if (table.roll_mode === "hall" && BUSY.has(state)) count[state] += 1;
  }
  return count;
}

// The table's state in a few words: who chooses what, whose turn, who won.
export function stateLine(table, cardName) {
  const state = tableState(table);
  const name = table.active_name || "";
  if (state === "choosing") return t("{name}: {card}", { name, card: cardName(table.asking ?? table.waiting) });
  if (state === "over") {
    if (table.winner !== null && table.winner !== undefined) return t("Won by {name}.", { name: table.players[table.winner].name });
    return table.result.outcomes.every((o) => o === "won") ? t("Game over: the players won together.") : t("Game over: the players lost.");
  }
  if (table.shared_turn) return ""; // a board of the event's shared turn (Catan): the turn is the event's
  if (["building", "ready", "paused"].includes(state)) return t("Turn {turn}: {name}", { turn: table.turn, name });
  return "";
}

const folded = (text) => text.toLocaleLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");

export class Overview {
  // `body`: the overview's <tbody>; `filter`: its <select>; `count`: the line that says how many
  // tables show; `cardName` names a card in the page's language.
  constructor({ body, filter, count, empty, cardName }) {
    Object.assign(this, { body, filter, count, empty, cardName });
    this.rows = new Map(); // table id -> {row, shown}
    this.query = "";
    this.tables = [];
    this.opened = new Set();
    filter.replaceChildren(...FILTERS.map(([value, text]) => h("option", { value }, text)));
  }

  setQuery(text) {
    this.query = folded(text.trim());
    this.show();
  }

  setFilter(value) {
    this.filter.value = value;
    this.show();
  }

  // Draw the rows of a hall view's tables; `opened`: the ids whose details show.
  update(tables, opened) {
    this.tables = tables;
    this.opened = opened;
    const wanted = new Set(tables.map((table) => String(table.id)));
    for (const [id, entry] of this.rows) {
      if (!wanted.has(id)) {
        entry.row.remove();
        this.rows.delete(id);
      }
    }
    tables.forEach((table, index) => {
      const id = String(table.id);
      let entry = this.rows.get(id);
      if (!entry) {
        entry = { row: h("tr", { "data-table": id }), shown: "" };
        this.rows.set(id, entry);
      }
      if (this.body.children[index] !== entry.row) this.body.insertBefore(entry.row, this.body.children[index] || null);
      const shown = JSON.stringify([table.name, table.status, table.phase, table.waiting, table.turn, table.active,
        table.active_name, table.winner, table.result, table.players.map((p) => [p.name, p.coins, p.points]), opened.has(id)]);
      if (entry.shown !== shown) {
        entry.shown = shown;
        this.draw(entry.row, table, opened.has(id));
      }
    });
    this.show();
  }

  draw(row, table, open) {
    const state = tableState(table);
    row.dataset.state = state;
    const active = table.status !== "setup" ? table.active : null;
    row.replaceChildren(
      h("th", { scope: "row" }, h("button", {
        type: "button", class: "table-open", "aria-expanded": String(open),
        "aria-controls": `card-${table.id}`, "data-table": table.id,
      }, bdi(table.name))),
      h("td", {}, h("span", { class: "state-badge", "data-state": state }, state === "ready" ? said(table.ruleset, "Ready to roll") : STATE_NAMES[state]),
        " ", h("span", { class: "state-line" }, stateLine(table, this.cardName))),
      h("td", { class: "who" }, table.players.map((player) => h("span", {
        class: player.seat === active ? "player active" : "player",
      }, bdi(player.name), " ", num(player.coins ?? player.points ?? "–")))),
    );
  }

  // Which rows show: the filter's state and the search, by a table's or a player's name.
  show() {
    const filter = this.filter.value;
    let shown = 0;
    const counts = Object.fromEntries(FILTERS.map(([value]) => [value, 0]));
    for (const table of this.tables) {
      const entry = this.rows.get(String(table.id));
      const state = entry.row.dataset.state;
      counts.all += 1;
      counts[state] += 1;
      if (BUSY.has(state)) counts.busy += 1;
      const names = [table.name, ...table.players.map((player) => player.name)];
      const visible = (filter === "all" || filter === state || (filter === "busy" && BUSY.has(state)))
        && (!this.query || names.some((name) => folded(name).includes(this.query)));
      entry.row.hidden = !visible;
      if (visible) shown += 1;
    }
    for (const option of this.filter.options) {
      const ruleset = eventRuleset(this.tables);
      const label = option.value === "ready" ? said(ruleset, "Ready to roll") : FILTERS.find(([value]) => value === option.value)[1];
      const text = `${label} (${counts[option.value]})`;
      if (option.textContent !== text) option.textContent = text;
    }
    const line = t("Tables shown: {shown} of {total}", { shown, total: this.tables.length });
    if (this.count.textContent !== line) this.count.textContent = line;
    this.empty.hidden = shown > 0 || !this.tables.length;
  }
}
