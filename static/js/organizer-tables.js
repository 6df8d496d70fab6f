// The console's table cards, the details of the tables the organizer opened from the overview:
// each built once from the <template> when first opened and then only updated, so a form the
// organizer is typing in survives every live update (and closing the card).

import { t } from "./i18n.js";
import { bdi, fill, h, signedText } from "./dom.js";
import { outcomeHeadline, stepLine } from "./coop-words.js";
import { hasWord, hides, said } from "./organizer-words.js";

const consoleData = JSON.parse(document.getElementById("console-data").textContent);

const STATUS = { setup: t("Set up"), running: t("Running"), paused: t("Paused"), ended: t("Ended") };
const ROLL_MODE = { hall: t("hall roll"), own: t("own roll") };
const PURPOSE = { stake: t("stake"), gift: t("gift") }; // co-op coins not for a card

// What a started table says of its options, in its ruleset's words where it has them.
const KEPT = "A started table keeps its set-up options.";
const optionsKept = (ruleset) => (hasWord(ruleset, KEPT) ? said(ruleset, KEPT) : t("A started table keeps its set-up options."));

function setText(root, selector, text) {
  const node = root.querySelector(selector);
  if (node.textContent !== text) node.textContent = text;
}

// A coin movement: "3 from the bank to Ana (Bakery)", and what of it was forgiven.
function transferLine(amount, from, to, card, forgiven) {
  const line = t("{amount} from {from} to {to} ({card})", { amount, from, to, card });
  return forgiven ? `${line} ${t("{n} forgiven", { n: forgiven })}` : line;
}

function button(text, action, seat) {
  return h("button", { type: "button", class: "secondary outline", "data-action": action, "data-seat": seat }, text);
}

export class TableCards {
  constructor(container, template, cardName, rulesetName) {
    this.container = container;
    this.template = template;
    this.cardName = cardName;
    this.rulesetName = rulesetName;
    this.cards = new Map(); // table id -> {node, shown}
  }

  // Draw the opened tables of a hall view (`opened`: their ids), in the view's order; `seats`
  // maps a table id to its seats with join links. The others' cards leave the page.
  update(tables, seats, opened) {
    const wanted = new Set(tables.map((table) => String(table.id)));
    for (const [id, card] of this.cards) {
      if (!wanted.has(id)) this.cards.delete(id);
      if (!wanted.has(id) || !opened.has(id)) card.node.remove();
    }
    tables.filter((table) => opened.has(String(table.id))).forEach((table, index) => {
      const id = String(table.id);
      let card = this.cards.get(id);
      if (!card) {
        card = { node: this.template.content.firstElementChild.cloneNode(true), shown: "" };
        card.node.dataset.table = id;
        card.node.id = `card-${id}`;
        card.node.setAttribute("aria-labelledby", `table-${id}-name`);
        card.node.querySelector(".table-name").id = `table-${id}-name`;
        // Each card's labels point at its own fields.
        for (const field of card.node.querySelectorAll("[data-id]")) field.id = `table-${id}-${field.dataset.id}`;
        for (const label of card.node.querySelectorAll("label[data-for]")) label.htmlFor = `table-${id}-${label.dataset.for}`;
        this.cards.set(id, card);
      }
      if (this.container.children[index] !== card.node) {
        this.container.insertBefore(card.node, this.container.children[index] || null);
      }
      const shown = JSON.stringify([table, seats.get(id) || null]);
      if (card.shown !== shown) {
        card.shown = shown;
        this.draw(card.node, table, seats.get(id) || []);
      }
    });
  }

  draw(node, table, seats) {
    setText(node, ".table-name", table.name);
    const badge = node.querySelector(".status-badge");
    badge.dataset.status = table.status;
    setText(node, ".status-badge", STATUS[table.status] ?? table.status);
    setText(node, ".table-meta", `${this.rulesetName(table.ruleset)} · ${ROLL_MODE[table.roll_mode] ?? table.roll_mode}`);
    setText(node, ".turn", this.turnText(table));
    const allowed = {
      start: table.status === "setup", pause: table.status === "running",
      resume: table.status === "paused", end: table.status !== "ended",
    };
    for (const [action, ok] of Object.entries(allowed)) node.querySelector(`[data-action="${action}"]`).hidden = !ok;
    node.querySelector(".setup-tools .add-player-form").hidden = table.status !== "setup";
    this.drawRollForSeat(node, table);
    this.drawEndTurnForSeat(node, table);
    node.querySelector(".correction").hidden = table.status === "setup";
    this.drawWords(node, table.ruleset);
    this.drawOptions(node, table);
    this.drawPlayers(node, table, seats);
    this.drawEntries(node, table);
    this.drawSeatChoice(node, table);
  }

  // An own-roll table whose seat's roll is due (a seat without a phone): the organizer rolls
  // for it, with the dice the seat chose.
  drawRollForSeat(node, table) {
    const place = node.querySelector(".status-actions");
    let button = place.querySelector('[data-action="roll_for_seat"]');
    const seat = Number.isInteger(table.roll_due) ? table.roll_due : null;
    if (seat === null) {
      button?.remove();
      return;
    }
    const words = t("Roll for {name}", { name: table.players[seat]?.name ?? "" });
    if (!button) {
      button = h("button", { type: "button", class: "roll-for-seat", "data-action": "roll_for_seat" });
      place.prepend(button);
    }
    button.dataset.seat = seat;
    if (button.textContent !== words) button.textContent = words;
  }

  // The seat building after its roll at an own-roll table: a seat without a phone cannot end
  // its turn, so the organizer does (the rules refuse it if the seat is not on turn).
  drawEndTurnForSeat(node, table) {
    const place = node.querySelector(".status-actions");
    let button = place.querySelector('[data-action="end_turn_for_seat"]');
    const building = table.roll_mode === "own" && table.status === "running" && table.phase === "build"
      && Number.isInteger(table.active) && !table.waiting;
    if (!building) {
      button?.remove();
      return;
    }
    const words = t("End the turn of {name}", { name: table.players[table.active]?.name ?? "" });
    if (!button) {
      button = h("button", { type: "button", class: "roll-for-seat secondary", "data-action": "end_turn_for_seat" });
      place.prepend(button);
    }
    button.dataset.seat = table.active;
    if (button.textContent !== words) button.textContent = words;
  }

  // The ruleset's own words for the card's general ones (a Catan board: Sun and Moon, points
  // and claims, no coins to correct).
  drawWords(node, ruleset) {
    const heads = node.querySelectorAll("table.players thead th");
    [said(ruleset, "Seat"), t("Player"), said(ruleset, "Coins"), said(ruleset, "Landmarks"), t("Join link"), t("Actions")]
      .forEach((word, i) => { if (heads[i] && heads[i].textContent !== word) heads[i].textContent = word; });
    for (const label of node.querySelectorAll("[data-word]")) label.textContent = said(ruleset, label.dataset.word);
    node.querySelector(".adjust-form").hidden = hides(ruleset, "Correct the coins");
  }

  // A table's own set-up options before its start (a Catan board's letter and colours), as
  // the ruleset lists them; set one board at a time (POST /api/tables/ID/options).
  drawOptions(node, table) {
    const specs = (consoleData.ruleset_options?.[table.ruleset] ?? []).filter((spec) => spec.kind === "choice");
    const form = node.querySelector(".options-form");
    form.hidden = table.status !== "setup" || specs.length === 0;
    this.drawOptionsKept(node, table, specs);
    const box = form.hidden && form.querySelector("#notice"); // its answer stays in sight
    if (box) form.after(box);
    if (form.hidden || form.contains(document.activeElement)) return;
    const fields = form.querySelector(".options-fields");
    const saved = (spec) => table.options?.[spec.name] ?? spec.default;
    // a choice the staff made and have not saved yet survives a live update of the card
    if (specs.some((spec) => { const kept = fields.querySelector(`select[name="${spec.name}"]`); return kept && kept.dataset.saved === saved(spec) && kept.value !== saved(spec); })) return;
    const id = node.dataset.table;
    fill(fields, specs.map((spec) => h("label", { for: `table-${id}-opt-${spec.name}` }, spec.label,
      h("select", { id: `table-${id}-opt-${spec.name}`, name: spec.name, "data-saved": saved(spec) },
        spec.choices.map((choice) => h("option", { value: choice, selected: saved(spec) === choice }, t(choice)))))));
  }

  // A started table's options, shown and no longer a form: the start dealt its set-up (a
  // Catan board's letter and colours), so they stay as they were.
  drawOptionsKept(node, table, specs) {
    const line = node.querySelector(".options-kept");
    line.hidden = table.status === "setup" || specs.length === 0;
    if (line.hidden) return;
    const values = specs.map((spec) => t(String(table.options?.[spec.name] ?? spec.default))).join(", ");
    setText(node, ".options-kept", `${said(table.ruleset, "Set-up options")}: ${values}. ${optionsKept(table.ruleset)}`);
  }

  turnText(table) {
    if (table.status === "setup") return t("Not started yet.");
    if (table.shared_turn && hasWord(table.ruleset, "Ready to roll")) {
      return table.status === "ended" ? t("Ended") : said(table.ruleset, "Ready to roll");
    }
    if (table.winner !== null && table.winner !== undefined) {
      return t("Won by {name}.", { name: table.players[table.winner].name });
    }
    if (table.result) {  // a game over without a single winner: the co-op pair shares its result
      const won = table.result.outcomes.every((outcome) => outcome === "won");
      return won ? t("Game over: the players won together.") : t("Game over: the players lost.");
    }
    const dice = table.dice && table.dice.length ? ` ${t("Dice: {dice}.", { dice: table.dice.join(" + ") })}` : "";
    const name = table.active_name || "";
    const card = table.waiting && this.cardName(table.asking ?? table.waiting);
    const waiting = card ? ` ${t("{name} is choosing: {card}", { name, card })}.` : "";
    return t("Turn {turn}: {name} is active.", { turn: table.turn, name }) + dice + waiting;
  }

  drawPlayers(node, table, seats) {
    const body = node.querySelector("tbody");
    body.replaceChildren(...table.players.map((player, index) => {
      const seatNumber = player.seat ?? index; // a Catan board's players are listed by seat
      const seat = seats.find((s) => s.seat === seatNumber);
      const landmarks = player.claim ? said(table.ruleset, `claim:${player.claim.status}`)
        : (player.landmarks ?? []).map((id) => this.cardName(id)).join(", ");
      const seatWord = player.role && hasWord(table.ruleset, `role:${player.role}`) ? said(table.ruleset, `role:${player.role}`) : seatNumber + 1;
      return h("tr", { class: seatNumber === table.active && table.status !== "setup" && "active" },
        h("td", { class: player.role ? "" : "num" }, seatWord),
        h("th", { scope: "row" }, bdi(player.name)), // names the row's link and buttons
        h("td", { class: "num coins", "data-label": said(table.ruleset, "Coins") }, player.coins ?? player.points ?? "–"),
        h("td", { class: "landmarks", "data-label": said(table.ruleset, "Landmarks") }, landmarks || "–"),
        // The seat's join code, to type as on the card, links to its join link.
        h("td", {}, seat && h("a", { class: "join-link", href: seat.join_url || seat.join_path },
          h("span", { class: "visually-hidden" }, `${t("Join link of {name}", { name: player.name })} `),
          h("code", { class: "join-code" }, bdi(seat.join_code)))),
        h("td", {}, seat && button(t("QR code"), "qr", seatNumber), button(t("New link"), "reassign", seatNumber),
          table.status === "setup" && button(t("Remove"), "remove", seatNumber)));
    }));
  }

  drawEntries(node, table) {
    node.querySelector(".entries").replaceChildren(...(table.entries || []).map((entry) => {
      const card = entry.card === "adjustment" ? t("correction") : this.cardName(entry.card);
      const from = entry.from_seat === "bank" ? t("the bank") : entry.from;
      const to = entry.to_seat === "bank" ? t("the bank") : entry.to;
      const line = transferLine(entry.amount, from, to, card, entry.forgiven);
      return h("li", {}, entry.reason ? `${line}: ${entry.reason}` : line);
    }));
  }

  drawSeatChoice(node, table) {
    const select = node.querySelector(".adjust-form select[name=seat]");
    const chosen = select.value;
    select.replaceChildren(...table.players.map((player) => h("option", { value: player.seat }, player.name)));
    if (chosen !== "" && table.players.some((p) => String(p.seat) === chosen)) select.value = chosen;
  }
}

// A seat's QR on screen, to scan (after "New link", or on asking): drawn by the server, as the
// console loads no QR library, with the short address and code to type beside it.
export function showSeatQr(dialog, tableId, link, name, title, lead) {
  dialog.querySelector("#qr-title").textContent = title;
  const leading = dialog.querySelector("#qr-lead");
  leading.textContent = lead;
  leading.hidden = !lead;
  const image = dialog.querySelector("#qr-image");
  image.alt = t("QR code of the join link of {name}", { name });
  image.src = `/api/tables/${encodeURIComponent(tableId)}/seats/${link.seat}/qr.svg?code=${encodeURIComponent(link.join_code)}`;
  const base = (link.join_url || "").slice(0, -link.join_path.length);
  dialog.querySelector("#qr-url").textContent = `${base}/j/${link.join_code}`;
  dialog.showModal();
}

// The journal of a table (GET /api/tables/ID/journal) as readable lines, newest move first.
export function drawAudit(container, moves, players, cardName) {
  const name = (seat) => (players[seat] ? players[seat].name : String(seat));
  const party = (account) => ({ bank: t("the bank"), assessor: t("the assessor") }[account] ?? name(account));
  const step = (kind, data) => stepLine({ step: kind, ...data }, cardName)[1];
  const describe = (kind, data) => {
    switch (kind) {
      case "DiceRolled":
        return t("{name} rolled {dice}", { name: name(data.seat), dice: data.dice.join(" + ") })
          + (data.reroll ? ` (${t("reroll")})` : "");
      case "CoinsTransferred":
        return transferLine(data.amount, party(data.source), party(data.target), cardName(data.card), data.forgiven);
      case "CoinsAdjusted":
        return t("Correction of {amount} for {name}: {reason}", {
          amount: signedText(data.amount), name: name(data.seat), reason: data.reason,
        });
      case "EstablishmentBought":
        return t("{name} bought {card}", { name: name(data.seat), card: cardName(data.card) });
      case "LandmarkBuilt":
        return t("{name} built {card}", { name: name(data.seat), card: cardName(data.landmark) });
      case "TurnEnded":
        return t("Turn ended; next: {name}", { name: name(data.next_active) });
      case "GameWon":
        return t("{name} won", { name: name(data.seat) });
      case "DiceCountChosen":
        return data.count === 1 ? t("{name} rolls 1 die from now on", { name: name(data.seat) })
          : t("{name} rolls {count} dice from now on", { name: name(data.seat), count: data.count });
      case "RerollOffered":
        return t("A reroll is offered (Radio Tower)");
      case "RollResolved":
        return t("Roll resolved") + (data.extra_turn ? `; ${t("an extra turn")}` : "")
          + (data.pending.length ? `; ${t("waiting for a choice")}` : "");
      case "ChoiceAnswered":
        return t("Choice made: {choice}", { choice: cardName(data.choice) });
      case "EstablishmentsSwapped":
        return t("{name} gave {give} to {other} for {take}", {
          name: name(data.seat), other: name(data.other), give: cardName(data.give), take: cardName(data.take),
        });
      // The co-op game's (companion/rules/coop/facts.py): the assessor's draws as its turn shows them.
      case "AssessorCoinsTransferred":
        return transferLine(data.amount, party(data.source), party(data.target),
          PURPOSE[data.kind] ?? cardName(data.card));
      case "DecksShuffled":
        return t("The dealer shuffled both decks");
      case "MarketCardRevealed":
        return t("{card} comes into the market row", { card: cardName(data.card) });
      case "MarketCardDiscarded":
        return t("{card} leaves the market row", { card: cardName(data.card) });
      case "AssessorCardDrawn":
        return step("draw", data);
      case "AssessorDeckShuffled":
        return step("reshuffle", { cards: data.order.length });
      case "FinalRoundBegan":
        return step("final_round", {});
      case "CoopGameEnded":
        return outcomeHeadline(data, { you: false });
      default:
        return `${kind} ${JSON.stringify(data)}`;
    }
  };
  const author = (who) => {
    const seat = /^seat (\d+)$/.exec(who);
    if (seat) return name(Number(seat[1]));
    const authors = { hall: t("the hall roll"), organizer: t("the organizer"), timer: t("the turn timer"), dealer: t("the dealer") };
    return authors[who] || who;
  };
  if (!moves.length) {
    container.replaceChildren(h("p", {}, t("No moves yet.")));
    return;
  }
  // An undone move stays, struck through and said undone; its reversal is a line of its own.
  container.replaceChildren(h("ol", { class: "audit-moves", reversed: true }, [...moves].reverse().map((move) =>
    (Number.isInteger(move.reverts)
      ? h("li", { value: move.move, class: "reversal" },
        h("strong", {}, t("Move {n} undone by {author}", { n: move.move, author: author(move.author) })))
      : h("li", { value: move.move, class: move.undone ? "undone" : null },
        h("strong", {}, t("Move {n} by {author}", { n: move.move, author: author(move.author) }),
          move.undone ? ` (${t("undone")})` : null),
        h("ul", {}, move.events.map((event) => h("li", {}, describe(event.kind, event.data)))))))));
}
