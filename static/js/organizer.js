// The organizer console: events, the overview of the tables and the details of those opened,
// the hall roll, settings, corrections, the journal, printables and export, all through the
// organizer API (docs/api.md); live from the `organizer` Socket.IO room. Everything shown is
// drawn from the server's answers, and each result shows next to the control that asked.

import { lang, t } from "./i18n.js";
import { $, followConnection, h } from "./dom.js";
import { act, notice } from "./organizer-api.js";
import { eventRuleset, hasWord, lineOptions, said } from "./organizer-words.js";
import { Overview } from "./organizer-overview.js";
import { HallRoll } from "./organizer-roll.js";
import { drawAudit, showSeatQr, TableCards } from "./organizer-tables.js";
import { TournamentPanel } from "./organizer-tournament.js";

const data = JSON.parse($("console-data").textContent);
const cardName = (id) => (data.card_names && data.card_names[id]) || id;
const rulesetName = (id) => data.rulesets[id] || id;
const cards = new TableCards($("tables"), $("table-card"), cardName, rulesetName);
const overview = new Overview({
  body: $("overview"), filter: $("table-filter"), count: $("table-count"), empty: $("no-match"), cardName,
});
// An evening of a few tables shows every table's details; a hall opens them from the list.
const OPEN_ALL_UP_TO = 4;
const state = {
  eventId: null, view: null, seats: new Map(), opened: new Set(), seen: new Set(), refreshing: null,
};
const tournament = new TournamentPanel({ options: (form, ruleset) => rulesetOptions(form, ruleset) });
const hallRoll = new HallRoll({
  eventId: () => state.eventId,
  showOpenTurns: () => {
    overview.setFilter("busy");
    $("table-filter").focus();
  },
});

// ------------------------------------------------------------------ events

const eventOption = (event) => h("option", { value: event.id }, event.name);

function knowEvent(event) {
  const select = $("event-select");
  if (![...select.options].some((o) => o.value === String(event.id))) select.append(eventOption(event));
}

async function chooseEvent(id) {
  state.eventId = id ? String(id) : null;
  state.view = null;
  state.seats = new Map();
  state.opened = new Set();
  state.seen = new Set();
  hallRoll.wait(false);
  hallRoll.closeQuestion();
  $("event-panel").hidden = !state.eventId;
  if (!state.eventId) return;
  $("event-select").value = state.eventId;
  const url = new URL(window.location.href);
  url.searchParams.set("event", state.eventId);
  window.history.replaceState(null, "", url);
  drawLinks();
  fillSettings(true);
  tournament.show(state.eventId);
  await refresh();
}

// The event with its tables' seats and join links (only the API gives tokens, never the socket).
async function refresh() {
  if (!state.eventId) return;
  const eventId = state.eventId;
  const answer = await act("GET", `/api/events/${encodeURIComponent(eventId)}`);
  if (!answer || eventId !== state.eventId) return;
  state.seats = new Map(answer.table_seats.map((table) => [String(table.id), table.seats]));
  draw(answer);
}

// Refresh at most once at a time when the live view shows seats the console has no links for.
function refreshSoon() {
  if (!state.refreshing) state.refreshing = refresh().finally(() => { state.refreshing = null; });
}

// A table whose summary names its seats only (a board whose turn is the event's, as a catan-big
// board's tile) is listed with those names, without coins or landmarks, at the event's turn.
function listed(table, turn) {
  if (table.players) return table;
  const players = (table.names ?? []).map((name, seat) => ({
    seat, name, coins: null, landmarks: [], role: table.roles?.[seat] ?? null, points: table.points?.[seat] ?? null,
    claim: table.claims?.[seat] ? { status: table.claims[seat] } : null,
  }));
  return { ...table, players, turn: turn ? turn.number : 0, shared_turn: true };
}

function draw(shown) {
  const view = { ...shown, tables: shown.tables.map((table) => listed(table, shown.turn)) };
  const seqs = new Map((state.view ? state.view.tables : []).map((table) => [String(table.id), table.seq]));
  const fresh = !state.view;
  state.view = view;
  knowEvent(view.event);
  fillSettings(fresh);
  hallRoll.draw(view);
  for (const table of view.tables) {  // a table met for the first time opens in a small event
    if (!state.seen.has(String(table.id)) && view.tables.length <= OPEN_ALL_UP_TO) state.opened.add(String(table.id));
    state.seen.add(String(table.id));
  }
  drawTables();
  $("no-tables").hidden = view.tables.length > 0;
  $("start-all").hidden = !view.tables.some((table) => table.status === "setup");
  const unknownSeats = view.tables.some((table) => {
    const seats = state.seats.get(String(table.id));
    return !seats || seats.length !== table.players.length
      || seats.some((seat, i) => seat.name !== table.players[i].name);
  });
  if (unknownSeats) refreshSoon();
  // An open journal follows its table: reload it when the table's journal moved on.
  for (const table of view.tables) {
    const seq = seqs.get(String(table.id));
    const card = cards.cards.get(String(table.id));
    if (seq !== undefined && seq !== table.seq && card && card.node.isConnected) loadAudit(card.node);
  }
  // The console's parts (templates/organizer/parts/: the clock, a ruleset's part) draw it too.
  document.dispatchEvent(new CustomEvent("console-view", { detail: shown }));
}

function drawTables() {
  const tables = state.view ? state.view.tables : [];
  overview.update(tables, state.opened);
  cards.update(tables, state.seats, state.opened);
  const hint = $("details-hint");
  hint.hidden = state.opened.size > 0;
  hint.textContent = said(eventRuleset(tables), hint.dataset.word);
  for (const node of document.querySelectorAll("[data-event-word]")) node.textContent = said(eventRuleset(tables), node.dataset.eventWord);
}

// Open a table's details from the list (and bring them into view), or close them.
function toggleTable(id, open) {
  if (open) state.opened.add(id);
  else state.opened.delete(id);
  drawTables();
  const card = cards.cards.get(id);
  if (open && card) {
    card.node.scrollIntoView({ block: "nearest" });
    card.node.querySelector("h3").focus({ preventScroll: true });
    loadAudit(card.node);
  } else {
    const row = $("overview").querySelector(`button.table-open[data-table="${CSS.escape(id)}"]`);
    if (row) row.focus();
  }
}

function fillSettings(force) {
  const form = $("settings-form");
  if (!state.view || (!force && form.contains(document.activeElement))) return;
  const event = state.view.event;
  for (const radio of form.elements.dice_mode) radio.checked = radio.value === event.dice_mode;
  form.elements.choice_seconds.value = String(event.choice_seconds);
  form.elements.seat_auto_roll.checked = Boolean(event.seat_auto_roll);
}

// ------------------------------------------------------------------ printables and exports

const PAPER_NAMES = { a4: "A4", letter: t("Letter (US)"), a3: "A3" };

function drawLinks() {
  if (!state.eventId) return;
  const event = encodeURIComponent(state.eventId);
  const paper = $("paper").value;
  const ssid = $("wifi-ssid").value.trim();
  const password = $("wifi-password").value;
  $("wifi-note").hidden = !(password && !ssid);
  const wifi = new URLSearchParams(ssid ? { wifi_ssid: ssid, wifi_password: password } : {}).toString();
  for (const link of document.querySelectorAll("#print-links a")) {
    const kind = link.dataset.kind;
    const papers = data.papers[kind] || [paper];
    const note = link.parentElement.querySelector(".paper-note");
    const printable = papers.includes(paper) && !data.refused_kinds.includes(kind);
    const paperShown = papers.includes(paper);
    note.hidden = paperShown;
    note.textContent = paperShown ? "" : ` ${t("(only on {papers})", { papers: papers.map((p) => PAPER_NAMES[p] || p).join(", ") })}`;
    const withWifi = wifi && ["join-cards", "poster"].includes(kind) ? `&${wifi}` : "";
    if (printable) link.href = `/prints/${kind}.pdf?event=${event}&paper=${paper}&lang=${lang}${withWifi}`;
    else link.removeAttribute("href");
  }
  $("export-csv").href = `/api/events/${event}/export?format=csv`;
  $("export-json").href = `/api/events/${event}/export?format=json`;
  $("hall-link").href = `/hall/${event}?lang=${lang}`;
}

// A printout takes a while to lay out (a thousand join cards about a minute): the clicked link
// shows "preparing" while the page fetches its PDF, then hands it over as a download. A refusal
// (a signed-out console, an event gone) opens the link itself: the server's page says why.
async function preparePrint(event) {
  const link = event.target.closest("a[href]");
  if (!link) return;
  event.preventDefault();
  if (link.getAttribute("aria-busy") === "true") return;  // one PDF at a time per link
  const note = link.parentElement.querySelector(".preparing");
  link.setAttribute("aria-busy", "true");
  note.hidden = false;
  try {
    const answer = await fetch(link.href, { headers: { Accept: "application/pdf" } });
    if (!answer.ok) {
      location.assign(link.href);
      return;
    }
    const pdf = URL.createObjectURL(await answer.blob());
    const named = /filename="?([^";]+)"?/.exec(answer.headers.get("Content-Disposition") || "");
    const save = h("a", { href: pdf, download: named ? named[1] : "companion.pdf", hidden: "" });
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(pdf), 60000);
  } catch {
    location.assign(link.href);  // the network failed: the browser says so
  } finally {
    link.removeAttribute("aria-busy");
    note.hidden = true;
  }
}

// ------------------------------------------------------------------ forms

function names(text) {
  return text.split("\n").map((line) => line.trim()).filter(Boolean);
}

const submitter = (event) => event.submitter || event.target.querySelector("button[type=submit]");

// A form's submit sent as one POST instead of a page load, its notice by the button that sent
// it: the server's answer, or null when refused (act has said why).
function postForm(event, path, body, done) {
  event.preventDefault();
  return act("POST", path, body, { done, at: submitter(event) });
}

async function createEvent(event) {
  const form = event.target;
  const answer = await postForm(event, "/api/events", { name: form.elements.name.value }, t("The event is created."));
  if (answer) {
    form.reset();
    knowEvent(answer);
    await chooseEvent(answer.id);
  }
}

async function saveSettings(event) {
  const form = event.target;
  const diceMode = [...form.elements.dice_mode].find((radio) => radio.checked);
  const body = { choice_seconds: Number(form.elements.choice_seconds.value), seat_auto_roll: form.elements.seat_auto_roll.checked };
  if (diceMode) body.dice_mode = diceMode.value;
  await postForm(event, `/api/events/${encodeURIComponent(state.eventId)}/settings`, body,
    t("The settings are saved."));
}

async function seatPlayers(event) {
  event.preventDefault();
  const form = event.target;
  const players = names(form.elements.players.value);
  const common = { players, ruleset: form.elements.ruleset.value, roll_mode: form.elements.roll_mode.value };
  Object.assign(common, rulesetOptions(form, common.ruleset));
  const sets = cardSets(form, common.ruleset);
  if (sets.length) common.card_sets = ["base", ...sets];
  const lines = tableLines(form, common.ruleset);
  if (lines === null) return;
  if (lines.length) common.table_options = lines;
  const eventPath = `/api/events/${encodeURIComponent(state.eventId)}`;
  const at = submitter(event);
  let answer;
  if (form.elements.split.value === "one") {
    const name = form.elements.table_name.value.trim()
      || tableName(common.ruleset, (state.view ? state.view.tables.length : 0) + 1);
    answer = await act("POST", `${eventPath}/tables`, { ...common, name }, { done: t("The table is created."), at });
  } else {
    answer = await act("POST", `${eventPath}/seating`, {
      ...common, table_size: Number(form.elements.table_size.value), name_prefix: said(common.ruleset, "Table"),
    }, { done: t("The tables are created."), at });
  }
  if (answer) {
    form.elements.players.value = "";
    form.elements.table_name.value = "";
    form.elements.table_lines.value = "";
    await refresh();
  }
}

// The chosen ruleset's set-up options (the server lists each ruleset's; the console has no
// game of its own), shown only for that ruleset and sent with its tables.
function showRulesetOptions() {
  const form = $("seating-form");
  const chosen = form.elements.ruleset.value;
  for (const box of form.querySelectorAll(".ruleset-options")) box.hidden = box.dataset.ruleset !== chosen;
  // The ruleset's own words (a Catan event: boards of two, Sun and Moon, a line a board).
  for (const node of form.querySelectorAll("[data-word]")) node.textContent = said(chosen, node.dataset.word);
  form.elements.table_size.hidden = hasWord(chosen, "Split into tables of at most");
  $("seating-lines").hidden = !hasWord(chosen, "Options per table, one line a table");
  // a card set that seats more (Harbor: 5) offers the bigger tables while it is ticked
  const more = cardSets(form, chosen).length > 0;
  for (const option of form.querySelectorAll("[data-card-sets-only]")) {
    option.hidden = !more;
    if (!more && option.selected) form.elements.table_size.selectedIndex = [...form.elements.table_size.options].findIndex((o) => !o.hidden);
  }
}

// The card sets ticked for the chosen ruleset (the server names them: data.card_sets).
function cardSets(form, ruleset) {
  const box = form.querySelector(`.ruleset-options[data-ruleset="${CSS.escape(ruleset)}"]`);
  return [...(box ? box.querySelectorAll("[data-card-set]:checked") : [])].map((input) => input.dataset.cardSet);
}

// A new table's name: "Table 3", or as its ruleset says it ("Board 3").
const tableName = (ruleset, n) => (hasWord(ruleset, "Table {n}") ? said(ruleset, "Table {n}", { n }) : t("Table {n}", { n }));

// The pasted lines of the tables' own options (one line a table, in the list's order: a
// board's letter and colours), or null when a line is not understood (said at the field).
function tableLines(form, ruleset) {
  if ($("seating-lines").hidden || !form.elements.table_lines.value.trim()) return [];
  const specs = data.ruleset_options?.[ruleset] ?? [];
  const found = [];
  const lines = form.elements.table_lines.value.replace(/\s+$/, "").split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) { // a blank line: that table keeps the options above
      found.push({});
      continue;
    }
    const read = lineOptions(line, specs);
    if (read.unknown !== undefined) {
      notice(t("Line {n}: “{word}” is no option of this game.", { n: i + 1, word: read.unknown }), "error", form.elements.table_lines);
      return null;
    }
    found.push(read.options);
  }
  return found;
}

function rulesetOptions(form, ruleset) {
  const box = form.querySelector(`.ruleset-options[data-ruleset="${CSS.escape(ruleset)}"]`);
  const options = {};
  for (const input of box ? box.querySelectorAll("[data-kind]") : []) {
    options[input.name] = { int: () => Number(input.value), bool: () => input.checked }[input.dataset.kind]?.() ?? input.value;
  }
  return options;
}

async function startAll(event) {
  const waiting = (state.view ? state.view.tables : []).filter((table) => table.status === "setup");
  let started = 0;
  for (const table of waiting) {
    if (!(await act("POST", `/api/tables/${encodeURIComponent(table.id)}/start`, undefined, { at: event.target }))) return;
    started += 1;
  }
  notice(t("Tables started: {n}.", { n: started }), "ok", event.target);
  await refresh();
}

async function setPin(event) {
  const form = event.target;
  const answer = await postForm(event, "/api/organizer/pin", { pin: form.elements.pin.value }, t("The PIN is set."));
  if (answer) {
    form.reset();
    drawPin(answer.pin_set);
  }
}

async function clearPin(event) {
  const answer = await act("POST", "/api/organizer/pin", { pin: null }, { done: t("The PIN is removed."), at: event.target });
  if (answer) drawPin(answer.pin_set);
}

function drawPin(set) {
  $("pin-status").textContent = set
    ? t("A PIN is set: a second device can sign in with it at /organizer.")
    : t("No PIN is set.");
  $("pin-clear").hidden = !set;
}

// ------------------------------------------------------------------ table cards

function tableOf(node) {
  const card = node.closest(".table-card");
  return card ? card.dataset.table : null;
}

async function tableAction(tableId, action, body, done, at, refused = {}) {
  const answer = await act("POST", `/api/tables/${encodeURIComponent(tableId)}/${action}`, body, { done, at, refused });
  if (answer) {
    state.seats.set(String(answer.id), answer.seats);
    await refresh();
  }
  return answer;
}

const STARTED = "The table has started: it keeps its set-up options.";
const rulesetOf = (tableId) => state.view?.tables.find((t2) => String(t2.id) === String(tableId))?.ruleset;

const playerName = (tableId, seat) => {
  const table = state.view && state.view.tables.find((t2) => String(t2.id) === String(tableId));
  return table && table.players[seat] ? table.players[seat].name : "";
};

async function onTableClick(event) {
  const target = event.target.closest("button[data-action], button.undo-button, button.close-card");
  if (!target) return;
  const tableId = tableOf(target);
  if (target.classList.contains("close-card")) {
    toggleTable(tableId, false);
    return;
  }
  if (target.classList.contains("undo-button")) {
    if (window.confirm(t("Undo the last move of this table? Its reversal is added to the journal."))) {
      await tableAction(tableId, "undo", {}, t("The last move is undone."), target);
    }
    return;
  }
  const action = target.dataset.action;
  const seat = Number(target.dataset.seat);
  const name = playerName(tableId, seat);
  if (action === "qr") {
    showQr(tableId, seat, t("Join link of {name}", { name }), "");
  } else if (action === "reassign") {
    if (!window.confirm(t("Give {name} a new join link? The phone now on this seat stops working at once; {name} scans the new QR code, which this screen then shows.", { name }))) return;
    const answer = await tableAction(tableId, "reassign", { seat }, t("The seat has a new join link; the old one no longer works."), target);
    if (answer) showQr(tableId, seat, t("New join link of {name}", { name }), t("The old link no longer works. Scan this QR code with the phone to take the seat again."));
  } else if (action === "remove") {
    await tableAction(tableId, "remove_player", { seat }, t("The player is removed."), target);
  } else if (action === "roll_for_seat") {
    await tableAction(tableId, "roll_for_seat", {}, t("Rolled for {name}.", { name }), target);
  } else if (action === "end_turn_for_seat") {
    await tableAction(tableId, "end_turn_for_seat", { seat }, t("The turn of {name} is ended.", { name }), target);
  } else if (["start", "pause", "resume", "end"].includes(action)) {
    if (action === "end" && !window.confirm(t("End this table? It cannot be resumed."))) return;
    await tableAction(tableId, action, {}, "", target);
  }
}

async function onTableSubmit(event) {
  event.preventDefault();
  const form = event.target;
  const tableId = tableOf(form);
  const at = submitter(event);
  if (form.classList.contains("rename-form")) {
    if (await tableAction(tableId, "rename", { name: form.elements.name.value }, t("The table is renamed."), at)) form.reset();
  } else if (form.classList.contains("options-form")) {
    const options = Object.fromEntries([...form.querySelectorAll("select")].map((select) => [select.name, select.value]));
    // a board started meanwhile (another console, the API): say what its start means
    const started = hasWord(rulesetOf(tableId), STARTED) ? said(rulesetOf(tableId), STARTED) : t("The table has started: it keeps its set-up options.");
    await tableAction(tableId, "options", { options }, t("The options are saved."), at, { "table/started": started });
  } else if (form.classList.contains("add-player-form")) {
    if (await tableAction(tableId, "add_player", { name: form.elements.name.value }, t("The player is added."), at)) form.reset();
  } else if (form.classList.contains("adjust-form")) {
    const body = {
      seat: Number(form.elements.seat.value), amount: Number(form.elements.amount.value),
      reason: form.elements.reason.value,
    };
    // a correction below zero is refused by the rules; said here with the figure, in the page's
    // language ("Dana Levi has 16 coins"), before asking
    const player = state.view?.tables.find((t2) => String(t2.id) === String(tableId))?.players[body.seat];
    if (player && Number.isInteger(player.coins) && player.coins + body.amount < 0) {
      notice(t("{name} has {coins} coins: a correction never takes a balance below zero.", { name: player.name, coins: player.coins }), "error", at);
      return;
    }
    if (await tableAction(tableId, "adjust", body, t("The correction is in the journal."), at)) {
      form.elements.amount.value = "";
      form.elements.reason.value = "";
    }
  }
}

async function loadAudit(card) {
  const details = card.querySelector(".audit");
  if (!details.open) return;
  const asked = String(Number(card.dataset.auditAsked || 0) + 1);
  card.dataset.auditAsked = asked; // only the latest answer is drawn when loads overlap
  const moves = await act("GET", `/api/tables/${encodeURIComponent(card.dataset.table)}/journal`, undefined, { at: details });
  if (!moves || card.dataset.auditAsked !== asked) return;
  const table = state.view && state.view.tables.find((t2) => String(t2.id) === card.dataset.table);
  drawAudit(card.querySelector(".audit-body"), moves, table ? table.players : [], cardName);
}

function showQr(tableId, seat, title, lead) {
  const link = (state.seats.get(String(tableId)) || []).find((s) => s.seat === seat);
  if (link) showSeatQr($("qr-dialog"), tableId, link, playerName(tableId, seat), title, lead);
}

// ------------------------------------------------------------------ live updates

function connect() {
  const socket = io({ auth: { organizer: true }, transports: ["websocket", "polling"] });
  followConnection(socket, $("connection"));
  socket.on("hall", (view) => {
    knowEvent(view.event);
    if (String(view.event.id) === state.eventId) {
      draw(view);
      tournament.changed();
    }
  });
}

// ------------------------------------------------------------------ start

function start() {
  const select = $("event-select");
  select.replaceChildren(...data.events.map(eventOption));
  select.addEventListener("change", () => chooseEvent(select.value));
  $("event-form").addEventListener("submit", createEvent);
  $("settings-form").addEventListener("submit", saveSettings);
  $("seating-form").addEventListener("submit", seatPlayers);
  $("seating-form").elements.ruleset.addEventListener("change", showRulesetOptions);
  $("seating-form").addEventListener("change", (event) => { if (event.target.dataset.cardSet) showRulesetOptions(); });
  $("start-all").addEventListener("click", startAll);
  $("print-links").addEventListener("click", preparePrint);
  for (const id of ["paper", "wifi-ssid", "wifi-password"]) $(id).addEventListener("input", drawLinks);
  $("pin-form").addEventListener("submit", setPin);
  $("pin-clear").addEventListener("click", clearPin);
  $("table-search").addEventListener("input", (event) => overview.setQuery(event.target.value));
  $("table-filter").addEventListener("change", () => overview.show());
  $("overview").addEventListener("click", (event) => {
    const button = event.target.closest("button.table-open");
    if (button) toggleTable(button.dataset.table, button.getAttribute("aria-expanded") !== "true");
  });
  $("tables").addEventListener("click", onTableClick);
  $("tables").addEventListener("submit", onTableSubmit);
  $("tables").addEventListener("toggle", (event) => {
    if (event.target.matches(".audit")) loadAudit(event.target.closest(".table-card"));
  }, true);
  $("qr-close").addEventListener("click", () => $("qr-dialog").close());
  drawPin(data.pin_set);
  showRulesetOptions();
  const asked = new URL(window.location.href).searchParams.get("event");
  const known = data.events.map((event) => String(event.id));
  const first = known.includes(asked) ? asked : known[known.length - 1];
  chooseEvent(first || null);
  connect();
  document.body.dataset.ready = "true";
}

start();
