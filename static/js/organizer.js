// The organizer console: events, tables, the hall roll, settings, corrections, the journal,
// printables and export, all through the organizer API (docs/api.md); live from the
// `organizer` Socket.IO room. Everything shown is drawn from the server's answers.

import { lang, t } from "./i18n.js";
import { $, followConnection, h, rollWords } from "./dom.js";
import { call, explain } from "./organizer-api.js";
import { drawAudit, TableCards } from "./organizer-tables.js";

const data = JSON.parse($("console-data").textContent);
const cardName = (id) => (data.card_names && data.card_names[id]) || id;
const rulesetName = (id) => data.rulesets[id] || id;
const cards = new TableCards($("tables"), $("table-card"), cardName, rulesetName);
const state = { eventId: null, view: null, seats: new Map(), rolling: false, refreshing: null };

// ------------------------------------------------------------------ messages

function notice(text, kind = "error") {
  const box = $("notice");
  box.textContent = text;
  box.dataset.kind = kind;
  box.setAttribute("role", kind === "error" ? "alert" : "status");
  box.hidden = !text;
}

// Run an API call; show its refusal instead of failing silently. Returns the answer or null.
// A change replaces the last message with its own (or none); a look-up leaves it standing.
async function act(method, path, body, done) {
  try {
    const answer = await call(method, path, body);
    if (method !== "GET") notice(done || "", "ok");
    return answer;
  } catch (error) {
    notice(explain(error));
    return null;
  }
}

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
  $("event-panel").hidden = !state.eventId;
  if (!state.eventId) return;
  $("event-select").value = state.eventId;
  const url = new URL(window.location.href);
  url.searchParams.set("event", state.eventId);
  window.history.replaceState(null, "", url);
  drawLinks();
  fillSettings(true);
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

function draw(view) {
  const fresh = !state.view;
  const seqs = new Map((state.view ? state.view.tables : []).map((table) => [String(table.id), table.seq]));
  state.view = view;
  knowEvent(view.event);
  fillSettings(fresh);
  drawRoll(view.rolls);
  cards.update(view.tables, state.seats);
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
    if (seq !== undefined && seq !== table.seq) loadAudit(cards.cards.get(String(table.id)).node);
  }
}

function fillSettings(force) {
  const form = $("settings-form");
  if (!state.view || (!force && form.contains(document.activeElement))) return;
  const event = state.view.event;
  for (const radio of form.elements.dice_mode) radio.checked = radio.value === event.dice_mode;
  form.elements.choice_seconds.value = String(event.choice_seconds);
}

function drawLinks() {
  const event = encodeURIComponent(state.eventId);
  const paper = $("paper").value;
  for (const link of document.querySelectorAll("#print-links a")) {
    link.href = `/prints/${link.dataset.kind}.pdf?event=${event}&paper=${paper}&lang=${lang}`;
  }
  $("export-csv").href = `/api/events/${event}/export?format=csv`;
  $("export-json").href = `/api/events/${event}/export?format=json`;
  $("hall-link").href = `/hall/${event}?lang=${lang}`;
}

// ------------------------------------------------------------------ the hall roll

function drawRoll(rolls) {
  const line = $("last-roll");
  if (!rolls.length) {
    line.textContent = t("No hall roll yet.");
    return;
  }
  const text = rollWords(rolls.length, rolls[rolls.length - 1]);
  if (line.textContent !== text) line.textContent = text;
}

async function rollForTheHall() {
  if (state.rolling || !state.eventId) return;
  state.rolling = true;
  $("roll-button").disabled = true;
  try {
    const answer = await act("POST", `/api/events/${encodeURIComponent(state.eventId)}/roll`, {});
    if (answer) $("last-roll").textContent = rollWords(answer.roll, answer.dice);
    if (answer) showSkipped(answer.skipped ?? []);
  } finally {
    state.rolling = false;
    $("roll-button").disabled = false;
  }
}

// A table the roll left out (it failed; the others rolled) is named next to the button.
function showSkipped(skipped) {
  const line = $("roll-skipped");
  line.hidden = !skipped.length;
  line.textContent = skipped.length
    ? t("Left out of this roll, unchanged: {tables}. The server's log says why.",
      { tables: skipped.map((s) => s.name).join(", ") })
    : "";
}

// The space bar rolls, except where it types or presses something of its own.
function spaceRolls(event) {
  if (event.code !== "Space" && event.key !== " ") return;
  if (event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, textarea, select, button, a, summary, [contenteditable]")) return;
  if ($("event-panel").hidden) return;
  event.preventDefault();
  rollForTheHall();
}

// ------------------------------------------------------------------ forms

function names(text) {
  return text.split("\n").map((line) => line.trim()).filter(Boolean);
}

async function createEvent(event) {
  event.preventDefault();
  const form = event.target;
  const answer = await act("POST", "/api/events", { name: form.elements.name.value },
    t("The event is created."));
  if (answer) {
    form.reset();
    knowEvent(answer);
    await chooseEvent(answer.id);
  }
}

async function saveSettings(event) {
  event.preventDefault();
  const form = event.target;
  const diceMode = [...form.elements.dice_mode].find((radio) => radio.checked);
  const body = { choice_seconds: Number(form.elements.choice_seconds.value) };
  if (diceMode) body.dice_mode = diceMode.value;
  await act("POST", `/api/events/${encodeURIComponent(state.eventId)}/settings`, body, t("The settings are saved."));
}

async function seatPlayers(event) {
  event.preventDefault();
  const form = event.target;
  const players = names(form.elements.players.value);
  const common = { players, ruleset: form.elements.ruleset.value, roll_mode: form.elements.roll_mode.value };
  const eventPath = `/api/events/${encodeURIComponent(state.eventId)}`;
  let answer;
  if (form.elements.split.value === "one") {
    const name = form.elements.table_name.value.trim()
      || t("Table {n}", { n: (state.view ? state.view.tables.length : 0) + 1 });
    answer = await act("POST", `${eventPath}/tables`, { ...common, name }, t("The table is created."));
  } else {
    answer = await act("POST", `${eventPath}/seating`, {
      ...common, table_size: Number(form.elements.table_size.value), name_prefix: t("Table"),
    }, t("The tables are created."));
  }
  if (answer) {
    form.elements.players.value = "";
    form.elements.table_name.value = "";
    await refresh();
  }
}

async function startAll() {
  const waiting = (state.view ? state.view.tables : []).filter((table) => table.status === "setup");
  for (const table of waiting) {
    if (!(await act("POST", `/api/tables/${encodeURIComponent(table.id)}/start`))) return;
  }
  await refresh();
}

async function setPin(event) {
  event.preventDefault();
  const form = event.target;
  const answer = await act("POST", "/api/organizer/pin", { pin: form.elements.pin.value }, t("The PIN is set."));
  if (answer) {
    form.reset();
    drawPin(answer.pin_set);
  }
}

async function clearPin() {
  const answer = await act("POST", "/api/organizer/pin", { pin: null }, t("The PIN is removed."));
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

async function tableAction(tableId, action, body, done) {
  const answer = await act("POST", `/api/tables/${encodeURIComponent(tableId)}/${action}`, body, done);
  if (answer) {
    state.seats.set(String(answer.id), answer.seats);
    await refresh();
  }
  return answer;
}

async function onTableClick(event) {
  const target = event.target.closest("button[data-action], button.undo-button");
  if (!target) return;
  const tableId = tableOf(target);
  if (target.classList.contains("undo-button")) {
    if (window.confirm(t("Undo the last move of this table? Its reversal is added to the journal."))) {
      await tableAction(tableId, "undo", {}, t("The last move is undone."));
    }
    return;
  }
  const action = target.dataset.action;
  const seat = Number(target.dataset.seat);
  if (action === "reassign") {
    await tableAction(tableId, "reassign", { seat }, t("The seat has a new join link; the old one no longer works."));
  } else if (action === "remove") {
    await tableAction(tableId, "remove_player", { seat });
  } else if (["start", "pause", "resume", "end"].includes(action)) {
    if (action === "end" && !window.confirm(t("End this table? It cannot be resumed."))) return;
    await tableAction(tableId, action, {});
  }
}

async function onTableSubmit(event) {
  event.preventDefault();
  const form = event.target;
  const tableId = tableOf(form);
  if (form.classList.contains("rename-form")) {
    if (await tableAction(tableId, "rename", { name: form.elements.name.value })) form.reset();
  } else if (form.classList.contains("add-player-form")) {
    if (await tableAction(tableId, "add_player", { name: form.elements.name.value })) form.reset();
  } else if (form.classList.contains("adjust-form")) {
    const body = {
      seat: Number(form.elements.seat.value), amount: Number(form.elements.amount.value),
      reason: form.elements.reason.value,
    };
    if (await tableAction(tableId, "adjust", body, t("The correction is in the journal."))) {
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
  const moves = await act("GET", `/api/tables/${encodeURIComponent(card.dataset.table)}/journal`);
  if (!moves || card.dataset.auditAsked !== asked) return;
  const table = state.view && state.view.tables.find((t2) => String(t2.id) === card.dataset.table);
  drawAudit(card.querySelector(".audit-body"), moves, table ? table.players : [], cardName);
}

// ------------------------------------------------------------------ live updates

function connect() {
  const socket = io({ auth: { organizer: true }, transports: ["websocket", "polling"] });
  followConnection(socket, $("connection"));
  socket.on("hall", (view) => {
    knowEvent(view.event);
    if (String(view.event.id) === state.eventId) draw(view);
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
  $("start-all").addEventListener("click", startAll);
  $("roll-button").addEventListener("click", rollForTheHall);
  $("paper").addEventListener("change", drawLinks);
  $("pin-form").addEventListener("submit", setPin);
  $("pin-clear").addEventListener("click", clearPin);
  $("tables").addEventListener("click", onTableClick);
  $("tables").addEventListener("submit", onTableSubmit);
  $("tables").addEventListener("toggle", (event) => {
    if (event.target.matches(".audit")) loadAudit(event.target.closest(".table-card"));
  }, true);
  document.addEventListener("keydown", spaceRolls);
  drawPin(data.pin_set);
  const asked = new URL(window.location.href).searchParams.get("event");
  const known = data.events.map((event) => String(event.id));
  const first = known.includes(asked) ? asked : known[known.length - 1];
  chooseEvent(first || null);
  connect();
  document.body.dataset.ready = "true";
}

start();
