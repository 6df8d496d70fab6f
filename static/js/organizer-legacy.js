// The console's Machi Koro Legacy campaigns (templates/organizer/parts/legacy.html): a new
// campaign, and per campaign of the event, side by side, the roll for the first start player,
// the next game's set-up, the game being played (recorded by the hall when its table is won, or
// here by hand), the register, the end-of-game checklist and the catalog with its editor.
// Everything drawn is the series view (docs/api.md: GET /api/events/<id>/series); every change
// is a command or /next (organizer-legacy-cards.js: the catalog and its editor), and a refusal is said in the form that asked with the
// server's message, whose field is marked (aria-invalid) and focused.

import { t } from "./i18n.js";
import { $, bdi, fill, h, num, tx } from "./dom.js";
import { call, notice } from "./organizer-api.js";
import { currentEvent, currentView, onView, refusalWords } from "./organizer-event.js";
import { cardName, cardsEditor, catalogList, colourWord } from "./organizer-legacy-cards.js";

const NO_COMMUNITY = () => t("Every game needs a community landmark, and the catalog has none in play: add the next one from the legacy deck (Catalog, Add a card, Community landmark), or put one from the reserve in play.");
const MAYOR_COLOURS = ["red", "blue", "green", "yellow", "orange", "purple", "white", "black"];

// Refusals of a campaign, in the page's language; the server's message (the field) follows.
const REFUSALS = {
  "legacy/bad_group": t("The group cannot play like this."),
  "legacy/bad_setup": t("This set-up is not possible."),
  "legacy/bad_result": t("This result cannot be recorded."),
  "legacy/roll_off": t("No roll for the start player is due."),
  "legacy/not_ready": t("Not yet: a step comes first."),
  "legacy/campaign_over": t("The campaign's ten games are played."),
  "rule/bad_catalog": t("This card cannot be entered like this."),
  "series/unknown": t("There is no such campaign."),
  "series/out_of_step": t("The campaign changed meanwhile: check it and try again."),
};

// ------------------------------------------------------------------ a change, and its refusal

// POST `body` to `path`; the result is said in `form` (or next to `at`), a refused field marked.
export async function send(path, body, { done, form = null, at = null }) {
  const place = at ?? form?.querySelector("button[type=submit]") ?? null;
  if (form) for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
  try {
    const answer = await call("POST", path, body);
    notice(done, "ok", place);
    load();
    return answer;
  } catch (error) {
    notice(refusalWords(error, REFUSALS), "error", place);
    if (form && error.serverMessage) markField(form, error.serverMessage);
    return null;
  }
}

// The field a refusal names ("establishments[3].effect.amount: ...", "mayors[1].colour: ..."):
// the form's input whose data-path is that path, or the longest that starts it.
function markField(form, message) {
  const path = message.split(":")[0].trim()
    .replace(/^(establishments|landmarks|community)(\[\d+\])?\./, "").replace(/^bonus\b/, "effect");
  let best = null;
  for (const field of form.querySelectorAll("[data-path]")) {
    const own = field.dataset.path;
    const fits = path === own || path.startsWith(`${own}.`) || path.startsWith(`${own}[`);
    if (fits && !field.closest("[hidden]") && (!best || own.length > best.dataset.path.length)) best = field;
  }
  if (!best) return;
  best.setAttribute("aria-invalid", "true");
  best.focus();
}

// ------------------------------------------------------------------ the campaigns of the event

const panels = new Map(); // series id -> its panel (kept: forms being typed survive a redraw)
let loading = null;
let again = false;

async function load() {
  if (loading) {
    again = true;
    return;
  }
  const eventId = currentEvent();
  if (!eventId) return;
  loading = call("GET", `/api/events/${encodeURIComponent(eventId)}/series`).catch(() => null);
  const answer = await loading;
  loading = null;
  if (answer && eventId === currentEvent()) draw(answer.series ?? []);
  if (again) {
    again = false;
    load();
  }
}

function draw(series) {
  const mine = series.filter((one) => one.ruleset === "legacy");
  $("legacy-none").hidden = mine.length > 0;
  const box = $("legacy-campaigns");
  const ids = new Set(mine.map((one) => String(one.id)));
  for (const [id, panel] of panels) {
    if (!ids.has(id)) {
      panel.node.remove();
      panels.delete(id);
    }
  }
  mine.forEach((one, i) => {
    const id = String(one.id);
    if (!panels.has(id)) panels.set(id, new CampaignPanel(id));
    const panel = panels.get(id);
    panel.update(one);
    if (box.children[i] !== panel.node) box.insertBefore(panel.node, box.children[i] ?? null);
  });
}

let shownEvent = null;
onView((view) => {
  const eventId = view ? currentEvent() : null;
  $("legacy-part").hidden = !eventId;
  if (eventId !== shownEvent) {
    shownEvent = eventId;
    for (const panel of panels.values()) panel.node.remove();
    panels.clear();
  }
  if (eventId) load();
});

// ------------------------------------------------------------------ a new campaign

function fillColours() {
  for (const select of document.querySelectorAll("#legacy-create-form select[data-colours]")) {
    const seat = Number(select.dataset.colours);
    fill(select, MAYOR_COLOURS.map((colour) => h("option", { value: colour }, colourWord(colour))));
    select.value = MAYOR_COLOURS[seat];
  }
}

// The cards a new campaign starts with: the base game's ("base"), a card-list file's JSON (as
// a campaign's catalog saves it), or none; null when the file cannot be read (said in the form).
async function startingCards(form) {
  const choice = form.elements.cards.value;
  if (choice === "base") return { catalog: "base" };
  if (choice === "none") return {};
  const file = form.elements["card-file"].files[0];
  const place = form.querySelector("button[type=submit]");
  if (!file) {
    notice(t("Choose the card-list file first."), "error", place);
    return null;
  }
  try {
    return { catalog: JSON.parse(await file.text()) };
  } catch {
    notice(t("This file is not a card list (JSON) the console saved."), "error", place);
    return null;
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const cards = await startingCards(form);
  if (!cards) return;
  const mayors = [0, 1, 2, 3].map((seat) => ({
    name: form.elements[`mayor-name-${seat}`].value.trim(),
    colour: form.elements[`mayor-colour-${seat}`].value,
    city: form.elements[`mayor-city-${seat}`].value.trim(),
  })).filter((mayor) => mayor.name || mayor.city);
  const body = { ruleset: "legacy", name: form.elements.name.value.trim(), mayors, ...cards };
  const answer = await send(`/api/events/${encodeURIComponent(currentEvent())}/series`, body,
    { done: t("The campaign is created."), form });
  if (answer) {
    form.reset();
    fillColours();
  }
}

// ------------------------------------------------------------------ one campaign

class CampaignPanel {
  constructor(id) {
    this.id = id;
    this.view = null;
    this.signatures = {};
    const part = (name) => h("div", { class: `legacy-${name}` });
    this.parts = {
      group: part("group"), roll: part("roll"), next: part("next"), playing: part("playing"),
      checklist: part("checklist"), register: part("register"), catalog: part("catalog"),
    };
    this.title = h("h3", { id: `legacy-${id}-title` });
    this.editor = cardsEditor((kind, entry, form) => this.command(
      { command: "add_entry", kind, entry }, t("The card is added to the catalog."), { form }));
    this.node = h("article", { class: "legacy-campaign", "data-series": id, "aria-labelledby": `legacy-${id}-title` },
      h("header", {}, this.title, this.parts.group),
      this.parts.roll, this.parts.next, this.parts.playing, this.parts.checklist, this.parts.register,
      h("details", { class: "legacy-cards" }, h("summary", {}, t("Catalog")), this.saveButton(), this.parts.catalog,
        h("details", { class: "legacy-editor" }, h("summary", {}, t("Add a card")), this.editor.form)));
  }

  // The catalog as a card-list file, the JSON a new campaign takes (carried to another laptop).
  saveButton() {
    const button = h("button", { type: "button", class: "secondary outline legacy-save-cards" }, t("Save the card list"));
    button.addEventListener("click", () => {
      const text = JSON.stringify(this.view.catalog, null, 2);
      const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
        download: `${this.view.name.replace(/[^\p{L}\p{N}]+/gu, "-")}-cards.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });
    return h("p", {}, button, " ", h("span", { class: "hint" }, t("A file to start the campaign with on another laptop.")));
  }

  command(body, done, where) {
    return send(`/api/series/${encodeURIComponent(this.id)}/commands`, body, { done, ...where });
  }

  // Redraw a part only when what it shows changed (a form in it may be half typed).
  changed(name, value) {
    const signature = JSON.stringify(value);
    if (this.signatures[name] === signature) return false;
    this.signatures[name] = signature;
    return true;
  }

  update(series) {
    this.series = series;
    const view = series.state;
    this.view = view;
    const played = view.games.length;
    fill(this.title, bdi(view.name), " ", h("span", { class: "legacy-count" },
      tx("{n} of 10 games played", { n: num(view.register.length) })));
    if (this.changed("group", view.mayors)) fill(this.parts.group, this.groupList());
    if (this.changed("roll", [view.start_roll, played])) fill(this.parts.roll, played ? null : this.startRoll());
    if (this.changed("next", [view.next, view.cards, played])) fill(this.parts.next, this.nextGame());
    const open = view.games.filter((game) => !game.register);
    const tableNames = Object.values(series.tables ?? {}).map((id) => this.tableName(id));
    if (this.changed("playing", [open, series.tables, tableNames])) fill(this.parts.playing, open.map((game) => this.playing(game)));
    if (this.changed("checklist", view.checklist)) fill(this.parts.checklist, this.checklist());
    if (this.changed("register", [view.register, view.withdrawn])) fill(this.parts.register, this.register());
    if (this.changed("catalog", view.cards)) {
      fill(this.parts.catalog, catalogList(view.cards, (card, status, select) => this.command(
        { command: "set_status", card, status }, t("The card's place is changed."), { at: select })));
      this.editor.know(view.cards);
    }
  }

  name(seat) {
    return this.view.mayors[seat]?.name ?? "";
  }

  groupList() {
    return h("ul", { class: "legacy-group" }, this.view.mayors.map((mayor) => h("li", {},
      h("span", { class: `legacy-swatch colour-${mayor.colour}`, title: colourWord(mayor.colour) }),
      h("span", { class: "visually-hidden" }, colourWord(mayor.colour)), " ",
      h("strong", {}, bdi(mayor.name)), " · ", bdi(mayor.city))));
  }

  // The first game's start player: everyone rolls two dice (the hall rolls), the tied again.
  startRoll() {
    const roll = this.view.start_roll;
    const rounds = roll.rounds.map((pairs, i) => {
      const seats = i === 0 ? this.view.mayors.map((m) => m.seat) : this.tiedBefore(i);
      return h("li", {}, tx("Round {n}:", { n: num(i + 1) }), " ", pairs.map(([a, b], j) => h("span", { class: "legacy-dice" },
        bdi(this.name(seats[j])), " ", num(`${a}+${b}=${a + b}`))));
    });
    const winner = roll.winner === null || roll.winner === undefined ? null : roll.winner;
    const button = h("button", { type: "button", class: "legacy-roll-button" }, t("Roll for the start player"));
    button.addEventListener("click", () => this.command({ command: "roll_for_start" },
      t("The dice are rolled."), { at: button }));
    return h("section", { class: "legacy-block", "data-notice-after": true },
      h("h4", {}, t("Who starts the first game")),
      h("p", { class: "hint" }, t("Everyone rolls two dice; the highest starts, the tied roll again.")),
      rounds.length ? h("ol", { class: "legacy-rounds" }, rounds) : null,
      winner !== null ? h("p", { class: "legacy-winner" }, tx("{name} starts the first game.", { name: bdi(this.name(winner)) }))
        : [roll.rounds.length ? h("p", {}, tx("Tied: {names} roll again.", { names: bdi(roll.contenders.map((s) => this.name(s)).join(", ")) })) : null, button]);
  }

  tiedBefore(round) {
    // the contenders of an earlier round: those with the highest total in the round before it
    let seats = this.view.mayors.map((m) => m.seat);
    for (const pairs of this.view.start_roll.rounds.slice(0, round)) {
      const totals = pairs.map(([a, b]) => a + b);
      const best = Math.max(...totals);
      seats = seats.filter((_, i) => totals[i] === best);
    }
    return seats;
  }

  // The next game's set-up: three landmarks per player (the proposal chosen), the community
  // landmark, each player's starting (town-square) cards; or why it cannot start yet.
  nextGame() {
    const next = this.view.next;
    const last = this.view.games.at(-1);
    if (!next.ready) {
      let why = null;
      if (next.why === "legacy/campaign_over") why = t("The campaign's ten games are played.");
      else if (!last || !last.register) why = null; // the start roll, or the game being played, says it
      else why = tx("Tick the end-of-game steps of game {n} first.", { n: num(last.game) });
      return why ? h("p", { class: "hint legacy-why" }, why) : null;
    }
    const proposal = next.proposal;
    const landmarks = this.view.cards.filter((card) => card.kind === "landmark" && card.status === "in_play")
      .sort((a, b) => a.letter.localeCompare(b.letter));
    const town = this.view.cards.filter((card) => card.kind === "establishment" && card.town_square && card.status !== "archive");
    const community = this.view.cards.filter((card) => card.kind === "community" && card.status === "in_play");
    const form = h("form", { class: "legacy-next-form" });
    const rows = this.view.mayors.map((mayor) => h("tr", {},
      h("th", { scope: "row" }, bdi(mayor.name)),
      [0, 1, 2].map((slot) => h("td", {}, h("select", {
        name: `landmark-${mayor.seat}-${slot}`, "data-path": `landmarks[${mayor.seat}][${slot}]`,
        "aria-label": t("Landmark {n} of {name}", { n: slot + 1, name: mayor.name }),
      }, landmarks.map((card) => h("option", { value: card.id, selected: proposal.landmarks?.[mayor.seat]?.[slot] === card.id },
        `${card.letter} · ${cardName(card)}`))))),
      h("td", {}, h("fieldset", { class: "legacy-town", "data-path": `town_square[${mayor.seat}]`, tabindex: "-1" },
        h("legend", { class: "visually-hidden" }, t("Starting cards of {name}", { name: mayor.name })),
        town.filter((card) => !card.mayor_colour || card.mayor_colour === mayor.colour).map((card) => h("label", {}, h("input", {
          type: "checkbox", name: `town-${mayor.seat}`, value: card.id,
          checked: (proposal.town_square?.[mayor.seat] ?? []).includes(card.id),
        }), " ", cardName(card)))))));
    form.append(
      h("h4", {}, tx("Game {n}: the set-up", { n: num(next.game) })),
      h("p", {}, tx("{name} starts.", { name: bdi(this.name(next.first)) })),
      h("div", { class: "legacy-scroll" }, h("table", { class: "legacy-setup" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col", colspan: 3 }, t("Three landmarks")), h("th", { scope: "col" }, t("Starting cards")))),
        h("tbody", {}, rows))),
      h("p", { class: "hint" }, t("Tick as many starting cards for each player as the ticks on their tableau.")),
      community.length ? h("label", {}, t("Community landmark"), h("select", { name: "community", "data-path": "community" },
        community.map((card) => h("option", { value: card.id, selected: proposal.community === card.id },
          t("{name} ({cost})", { name: cardName(card), cost: card.cost })))))
        : h("p", { class: "legacy-why", role: "note", "data-path": "community", tabindex: "-1" }, NO_COMMUNITY()),
      h("button", { type: "submit" }, t("Start game {n}", { n: next.game })));
    form.addEventListener("submit", (event) => this.start(event));
    return form;
  }

  async start(event) {
    event.preventDefault();
    const form = event.target;
    if (!form.elements.community) { // said here, in the page's language, before asking the server
      notice(NO_COMMUNITY(), "error", form.querySelector("button[type=submit]"));
      return;
    }
    const seats = this.view.mayors.map((mayor) => mayor.seat);
    const body = {
      landmarks: seats.map((seat) => [0, 1, 2].map((slot) => form.elements[`landmark-${seat}-${slot}`].value)),
      community: form.elements.community?.value || null,
      town_square: seats.map((seat) => [...form.querySelectorAll(`input[name="town-${seat}"]:checked`)].map((box) => box.value)),
    };
    // a mayor's number of starting cards is the ticks on their tableau: the ticked boxes say it
    for (const [seat, own] of body.town_square.entries()) {
      if (own.length === this.view.mayors[seat].picks) continue;
      const set = await this.command({ command: "set_picks", seat, picks: own.length }, "", { form });
      if (!set) return;
    }
    const answer = await send(`/api/series/${encodeURIComponent(this.id)}/next`, body,
      { done: t("The game has started: its table is in the list below."), form });
    if (answer?.table) notice(t("Game started at table {name}.", { name: answer.table.name }), "ok", this.parts.playing);
  }

  // A game being played: where, and its winner recorded by hand (a game played on paper).
  playing(game) {
    const tableId = this.series.tables?.[String(game.game)];
    const letters = game.landmarks.map((own, seat) => `${this.name(seat)} ${own.join("")}`).join(" · ");
    const form = h("form", { class: "inline-form legacy-record" },
      h("label", {}, t("Winner"), h("select", { name: "winner", "data-path": "winner" },
        this.view.mayors.map((mayor) => h("option", { value: mayor.seat }, mayor.name)))),
      h("label", {}, t("Date"), h("input", { name: "date", type: "date", "data-path": "date",
        value: new Date().toISOString().slice(0, 10) })),
      h("button", { type: "submit", class: "secondary" }, t("Record the winner")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.command({ command: "record_game", number: game.game, winner: Number(form.elements.winner.value), date: form.elements.date.value },
        t("The game is in the register."), { form });
    });
    return h("section", { class: "legacy-block" },
      h("h4", {}, tx("Game {n} is being played", { n: num(game.game) })),
      h("p", {}, tableId ? tx("At table {table}; the hall records its winner.", { table: bdi(this.tableName(tableId)) }) : null,
        " ", tx("Landmarks by letter: {letters}.", { letters: bdi(letters) })),
      h("details", {}, h("summary", {}, t("Record the winner by hand")), form));
  }

  tableName(id) {
    return currentView()?.tables?.find((table) => String(table.id) === String(id))?.name ?? String(id);
  }

  // The eight steps after a game (seed 002), in order; each ticked when done.
  checklist() {
    const steps = this.view.checklist;
    if (!steps || steps.every((step) => step.done)) return null;
    const number = this.view.games.at(-1).game;
    const cards = (ids) => bdi(ids.map((id) => cardName(this.view.cards.find((card) => card.id === id) ?? { id })).join(", "));
    const words = {
      register: () => t("The winner writes the date, their name and city in the register."),
      archive_community: (step) => tx("The community landmark goes to the archive: {cards}.", { cards: cards(step.cards) }),
      archive_landmarks: (step) => tx("Each player's leftmost landmark goes to the archive: {cards}.", { cards: cards(step.cards) }),
      town_square_cards: (step) => tx("Draw the next {n} legacy cards (town-square cards, one per colour) and add them to the catalog.", { n: num(step.draw) }),
      double_sided_cards: (step) => tx("Draw the next {n} legacy cards (double-sided): {name} chooses a side; add them to the catalog.", { n: num(step.draw), name: bdi(step.chooser ?? "") }),
      city_to_reserve: () => t("Every player's town-square cards and city pieces go to the reserve."),
      rebuild_supply: () => t("Rebuild the supply in activation order, new piles included."),
      coins_to_bank: () => t("Every coin goes back to the bank."),
    };
    const firstOpen = steps.find((step) => !step.done)?.step;
    return h("section", { class: "legacy-block legacy-steps" },
      h("h4", {}, tx("After game {n}: the eight steps", { n: num(number) })),
      h("ol", {}, steps.map((step) => {
        const line = h("li", { class: step.done ? "done" : "open", "data-step": step.step },
          h("span", { class: "legacy-tick", "aria-hidden": "true" }, step.done ? "✓" : "○"), " ",
          words[step.key]?.(step) ?? step.key,
          step.done ? h("span", { class: "visually-hidden" }, ` (${t("done")})`) : null,
          !step.done && step.automatic ? h("span", { class: "hint" }, " ", t("(the app does it when ticked)")) : null);
        if (!step.done && step.step === firstOpen) {
          const button = h("button", { type: "button", class: "legacy-tick-button" }, t("Done"));
          button.addEventListener("click", () => this.command({ command: "tick_step", number, step: step.step },
            t("The step is done."), { at: button }));
          line.append(" ", h("span", { "data-notice-after": true }, button));
        }
        return line;
      })));
  }

  // The register's lines by game; a line withdrawn (its winning move undone at the table) stays,
  // crossed out, before the game's line written again, as on the players' paper.
  register() {
    const withdrawn = (this.view.withdrawn ?? []).map((line) => ({ ...line, withdrawn: true }));
    const lines = [...withdrawn, ...this.view.register].sort((a, b) => a.game - b.game);
    const cell = (line, content) => h("td", {}, line.withdrawn ? h("del", {}, content) : content);
    return h("section", { class: "legacy-block" },
      h("h4", { id: `legacy-${this.id}-register` }, t("The register")),
      lines.length ? h("div", { class: "legacy-scroll" }, h("table", { class: "legacy-register", "aria-labelledby": `legacy-${this.id}-register` },
        h("thead", {}, h("tr", {}, [t("Game"), t("Date"), t("Winner"), t("City")].map((word) => h("th", { scope: "col" }, word)))),
        h("tbody", {}, lines.map((line) => h("tr", line.withdrawn ? { class: "legacy-withdrawn" } : {},
          h("td", { class: "num-cell" }, num(line.game)), cell(line, num(line.date)),
          cell(line, bdi(line.name ?? "")), h("td", {}, line.withdrawn ? [h("del", {}, bdi(line.city)), " ",
            h("span", { class: "hint" }, t("(withdrawn)"))] : bdi(line.city)))))))
        : h("p", { class: "hint" }, t("No game is recorded yet.")),
      withdrawn.length ? h("p", { class: "hint" },
        t("A crossed-out line was withdrawn: the move that won its game was undone. Cross it out in the register on paper too.")) : null);
  }
}

// ------------------------------------------------------------------ start

fillColours();
$("legacy-create-form").addEventListener("submit", create);
