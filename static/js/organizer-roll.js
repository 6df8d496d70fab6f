// The console's hall roll: the big button and the space bar, dice rolled by hand in the hall, a
// second roll within a few seconds asked about first (two presses of Space 150 ms apart made two
// rolls; the server refuses the second, roll/too_soon, until the organizer says yes), how many
// tables still choose or build (and a roll that waits for them), and undoing the last roll.

import { t } from "./i18n.js";
import { $, rollWords } from "./dom.js";
import { act, call, explain, notice, Refused, refusalKind } from "./organizer-api.js";
import { openTurns } from "./organizer-overview.js";

const ROLL_BUTTONS = ["roll-button", "roll-again"];

export class HallRoll {
  // `eventId()`: the current event's id or null; `showOpenTurns()` shows those tables in the list.
  constructor({ eventId, showOpenTurns }) {
    this.eventId = eventId;
    this.rolling = false;
    this.waiting = false; // the organizer asked to roll once every table is done
    this.rolls = [];
    this.again = null; // the refused roll's dice (null: the server draws), for "Roll again anyway"
    $("roll-button").addEventListener("click", () => this.roll());
    $("roll-again").addEventListener("click", () => this.roll({ dice: this.again, confirm: true }));
    $("roll-keep").addEventListener("click", () => {
      this.closeQuestion();
      $("roll-button").focus();
    });
    $("undo-roll").addEventListener("click", () => this.undo());
    $("show-busy").addEventListener("click", showOpenTurns);
    $("wait-busy").addEventListener("click", () => this.wait(!this.waiting));
    $("hand-dice-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const form = event.target;
      const dice = [Number(form.elements.d1.value), Number(form.elements.d2.value)];
      this.roll({ dice, from: form.querySelector("button") });
    });
    document.addEventListener("keydown", (event) => this.spaceRolls(event));
  }

  path(action = "") {
    return `/api/events/${encodeURIComponent(this.eventId())}/roll${action}`;
  }

  // A hall view: the last roll, the tables whose turn is still open, and the undo button.
  draw(view) {
    this.rolls = view.rolls;
    const line = $("last-roll");
    const text = view.rolls.length ? rollWords(view.rolls.length, view.rolls[view.rolls.length - 1]) : t("No hall roll yet.");
    if (line.textContent !== text) line.textContent = text;
    $("undo-roll").hidden = !view.roll_undoable; // only the last roll, and only once
    this.open = openTurns(view.tables);
    if (this.waiting && this.open.choosing + this.open.building === 0) {
      this.wait(false);
      this.roll({ confirm: true }); // asked for, not a second press by mistake
    }
    this.drawOpenTurns();
  }

  drawOpenTurns() {
    const { choosing, building } = this.open ?? { choosing: 0, building: 0 };
    $("roll-busy").hidden = choosing + building === 0;
    const parts = [];
    if (choosing) parts.push(t("Tables still choosing: {n}", { n: choosing }));
    if (building) parts.push(t("Tables still building: {n}", { n: building }));
    if (this.waiting) parts.push(t("The hall rolls as soon as they are done."));
    const text = parts.join(" · ");
    if ($("roll-busy-text").textContent !== text) $("roll-busy-text").textContent = text;
  }

  // Wait for every open turn before rolling, or stop waiting.
  wait(on) {
    this.waiting = on;
    $("wait-busy").setAttribute("aria-pressed", String(on));
    this.drawOpenTurns();
  }

  // Roll for the hall: `dice` rolled by hand (else the server draws), `confirm` the organizer's
  // yes to a second roll right after one; the result shows next to `from`.
  async roll({ dice = null, confirm = false, from = $("roll-button") } = {}) {
    if (this.rolling || !this.eventId()) return;
    this.rolling = true;
    if (this.waiting) this.wait(false);
    this.closeQuestion();
    for (const id of ROLL_BUTTONS) $(id).disabled = true;
    try {
      const answer = await call("POST", this.path(), dice ? { dice, confirm } : { confirm });
      $("last-roll").textContent = rollWords(answer.roll, answer.dice);
      this.showSkipped(answer.skipped ?? []);
      notice("", "ok", from);
    } catch (error) {
      if (error instanceof Refused && error.code === "roll/too_soon") this.ask(dice);
      else notice(explain(error), refusalKind(error), from);
    } finally {
      this.rolling = false;
      for (const id of ROLL_BUTTONS) $(id).disabled = false;
    }
  }

  // The server refused a roll right after the last one: ask, without taking the focus (a third
  // press of Space must not say yes).
  ask(dice) {
    this.again = dice;
    $("roll-confirm-text").textContent = t("The hall rolled a few seconds ago: was this a second press by mistake? Another roll closes every choice and build still open at the tables.");
    $("roll-confirm").hidden = false;
  }

  closeQuestion() {
    $("roll-confirm").hidden = true;
  }

  async undo() {
    const n = this.rolls.length;
    if (!n) return;
    const [d1, d2] = this.rolls[n - 1];
    if (!window.confirm(t("Undo roll {n} ({d1} and {d2})? Every table that rolled goes back to where it was before it; the reversal is added to the journal.", { n, d1, d2 }))) return;
    const answer = await act("POST", this.path("/undo"), {}, { at: $("undo-roll") });
    if (answer) {
      notice(t("Roll {n} is undone. Tables taken back: {count}.", { n: answer.roll, count: answer.tables.length }), "ok", $("undo-roll"));
    }
  }

  // A table the roll left out (it failed; the others rolled) is named next to the button.
  showSkipped(skipped) {
    const line = $("roll-skipped");
    line.hidden = !skipped.length;
    line.textContent = skipped.length
      ? t("Left out of this roll, unchanged: {tables}. The server's log says why.",
        { tables: skipped.map((s) => s.name).join(", ") })
      : "";
  }

  // The space bar rolls, except where it types or presses something of its own.
  spaceRolls(event) {
    if (event.code !== "Space" && event.key !== " ") return;
    if (event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, button, a, summary, dialog, [contenteditable]")) return;
    if ($("event-panel").hidden || document.querySelector("dialog[open]")) return;
    event.preventDefault();
    this.roll();
  }
}
