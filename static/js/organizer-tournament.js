// The console's tournament panel (docs/api.md, Tournaments): register the players (a pasted
// list, keep-apart groups, rounds, ruleset and its options, a round time), start, start and
// close the rounds, drops and late arrivals, the semi-finals and the final, and the links to the
// projector page, the phone page and the paper. Everything drawn comes from the organizer API's
// answer; refusals are said next to the control that asked, as the rest of the console does.

import { lang, t } from "./i18n.js";
import { $, bdi, fill, h } from "./dom.js";
import { act, call } from "./organizer-api.js";
import { drawCut } from "./tournament-cut.js";

const REFRESH_AFTER_MS = 3000; // a live change of the event: the panel follows, at most this often

const lines = (text) => text.split("\n").map((line) => line.trim()).filter(Boolean);

export class TournamentPanel {
  constructor({ options }) {
    this.eventId = null;
    this.view = null; // the organizer's view of the event's tournament, null when it has none
    this.options = options; // (form, ruleset) => the ruleset's options as the form has them
    this.timer = null;
    this.asked = 0;
    $("tournament-form").addEventListener("submit", (event) => this.create(event));
    $("tournament-form").elements.ruleset.addEventListener("change", () => this.showOptions());
    $("tournament-late").addEventListener("submit", (event) => this.late(event));
    $("tournament-start").addEventListener("click", (event) => this.post("start", t("The tournament has started: every round is seated."), event.target));
    $("tournament-round").addEventListener("click", (event) => this.post("rounds/start", t("The round has started: its tables are playing."), event.target));
    $("tournament-close").addEventListener("click", (event) => this.closeRound(event.target));
    $("tournament-final").addEventListener("click", (event) => this.post("final", t("The round has started: its tables are playing."), event.target));
    $("tournament-players-list").addEventListener("click", (event) => this.playerAction(event));
    $("paper").addEventListener("input", () => this.drawLinks());
    this.showOptions();
  }

  get base() {
    return `/api/events/${encodeURIComponent(this.eventId)}/tournament`;
  }

  async show(eventId) {
    this.eventId = eventId ? String(eventId) : null;
    this.view = null;
    $("tournament").hidden = !this.eventId;
    await this.refresh();
  }

  // The event's tournament from the API; an event without one shows the registration form.
  async refresh() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.eventId) return;
    const eventId = this.eventId;
    const asked = ++this.asked;
    let view = null;
    try {
      view = await call("GET", `${this.base}?optional=1`); // null (204): the event has none
    } catch {
      return;
    }
    if (eventId !== this.eventId || asked !== this.asked) return;
    this.draw(view);
  }

  // The event changed (the live hall view): follow it a little later, once.
  changed() {
    if (this.view && !this.timer) this.timer = setTimeout(() => this.refresh(), REFRESH_AFTER_MS);
  }

  showOptions() {
    const form = $("tournament-form");
    const chosen = form.elements.ruleset.value;
    for (const box of form.querySelectorAll(".ruleset-options")) box.hidden = box.dataset.ruleset !== chosen;
  }

  draw(view) {
    this.view = view;
    $("tournament-form").hidden = Boolean(view);
    $("tournament-state").hidden = !view;
    if (!view) return;
    $("tournament-stage").textContent = this.stageWords();
    const open = view.current && view.current.open ? view.current : null;
    const next = view.next;
    const number = view.played + 1;
    const show = (id, shown, label) => {
      const button = $(id);
      button.hidden = !shown;
      if (label) button.textContent = label;
    };
    show("tournament-start", view.stage === "registration");
    show("tournament-round", next === "preliminary", t("Start round {n}", { n: number }));
    show("tournament-close", Boolean(open), open ? t("Close round {n} (unfinished tables are ranked as they stand)", { n: open.round }) : "");
    show("tournament-final", next === "semi-final" || next === "final",
      next === "semi-final" ? t("Start the semi-finals") : t("Start the final"));
    drawCut(view.cut);
    this.drawPlayers();
    this.drawLinks();
  }

  stageWords() {
    const view = this.view;
    const present = view.players.filter((p) => p.checked_in && !p.dropped).length;
    const round = (info) => (info.stage === "semi-final" ? t("the semi-finals")
      : info.stage === "final" ? t("the final") : t("round {n}", { n: info.round }));
    if (view.stage === "registration") {
      return t("Registration: {present} of {count} players are present; {rounds} preliminary rounds.",
        { present, count: view.players.length, rounds: view.rounds });
    }
    if (view.stage === "done") return t("The tournament is over: the final has been played.");
    if (view.current && view.current.open) return t("Playing {round}.", { round: round(view.current) });
    if (view.current) return t("Between rounds: {round} is closed.", { round: round(view.current) });
    return t("Seated: round 1 is next.");
  }

  drawPlayers() {
    const view = this.view;
    const registration = view.stage === "registration";
    $("tournament-count").textContent = t("Players: {n}", { n: view.players.length });
    fill($("tournament-players-list"), view.players.map((player) => {
      const status = player.dropped ? t("dropped") : !player.checked_in ? t("absent")
        : player.late ? t("arrived late") : t("present");
      let action = null;
      if (registration) {
        action = h("button", {
          type: "button", class: "secondary outline", "data-player": player.id, "data-present": String(!player.checked_in),
        }, player.checked_in ? t("Mark absent") : t("Check in"));
      } else if (!player.dropped && player.checked_in && view.stage !== "done") {
        action = h("button", { type: "button", class: "secondary outline", "data-player": player.id, "data-drop": "true" }, t("Drop"));
      }
      return h("tr", { "data-state": player.dropped ? "dropped" : player.checked_in ? "present" : "absent" },
        h("td", {}, bdi(player.name)), h("td", {}, status), h("td", {}, action));
    }));
  }

  drawLinks() {
    if (!this.eventId) return;
    const event = encodeURIComponent(this.eventId);
    $("tournament-screen-link").href = `/tournament/${event}/screen?lang=${lang}`;
    $("tournament-phone-link").href = `/tournament/${event}?lang=${lang}`;
    const paper = ["a4", "letter"].includes($("paper").value) ? $("paper").value : "a4";
    for (const link of document.querySelectorAll("[data-tournament-print]")) {
      link.href = `/tournament/${event}/prints/${link.dataset.tournamentPrint}.pdf?paper=${paper}&lang=${lang}`;
    }
    for (const link of document.querySelectorAll("[data-tournament-results]")) {
      link.href = `${this.base}/results?format=${link.dataset.tournamentResults}`;
    }
  }

  async post(path, done, at, body) {
    const answer = await act("POST", `${this.base}/${path}`, body, { done, at });
    if (answer) this.draw(answer);
    return answer;
  }

  async create(event) {
    event.preventDefault();
    const form = event.target;
    const ruleset = form.elements.ruleset.value;
    const minutes = form.elements.round_minutes.value.trim();
    const body = {
      players: lines(form.elements.players.value),
      keep_apart: lines(form.elements.keep_apart.value).map((line) => line.split(",").map((name) => name.trim()).filter(Boolean)),
      rounds: Number(form.elements.rounds.value),
      round_minutes: minutes ? Number(minutes) : null,
      ruleset,
      roll_mode: form.elements.roll_mode.value,
      options: this.options(form, ruleset),
    };
    const at = event.submitter || form.querySelector("button[type=submit]");
    const answer = await act("POST", this.base, body, { done: t("The tournament is created: check the players in, then start it."), at });
    if (answer) {
      form.reset();
      this.draw(answer);
    }
  }

  async late(event) {
    event.preventDefault();
    const form = event.target;
    const at = event.submitter || form.querySelector("button[type=submit]");
    if (await this.post("late", t("The player is added: seated from the next round on."), at, { name: form.elements.name.value })) form.reset();
  }

  async closeRound(at) {
    const open = this.view && this.view.current;
    if (!open || !window.confirm(t("Close the round? Tables still playing end now and are ranked as they stand."))) return;
    await this.post("rounds/close", t("The round is closed: the standings are updated."), at);
  }

  async playerAction(event) {
    const button = event.target.closest("button[data-player]");
    if (!button) return;
    const id = Number(button.dataset.player);
    const player = this.view.players.find((p) => p.id === id);
    if (button.dataset.drop) {
      if (!window.confirm(t("Drop {name}? The rounds not played yet are seated again without them.", { name: player.name }))) return;
      await this.post(`players/${id}/drop`, t("{name} has dropped.", { name: player.name }), button);
    } else {
      await this.post(`players/${id}/check_in`, "", button, { present: button.dataset.present === "true" });
    }
  }
}
