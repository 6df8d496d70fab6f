// The console's table cards: one per table, built once from the <template> and then only
// updated, so a form the organizer is typing in survives every live update.

import { t } from "./i18n.js";

const STATUS = {
  setup: () => t("Set up"),
  running: () => t("Running"),
  paused: () => t("Paused"),
  ended: () => t("Ended"),
};
const ROLL_MODE = { hall: () => t("hall roll"), own: () => t("own roll") };
const WAITING = {
  reroll: () => t("waiting for a reroll choice"),
  tv_station: () => t("waiting for a TV Station target"),
  business_center: () => t("waiting for a Business Center swap"),
};

function setText(root, selector, text) {
  const node = root.querySelector(selector);
  if (node.textContent !== text) node.textContent = text;
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(text, action, seat, className = "secondary outline") {
  const node = element("button", text, className);
  node.type = "button";
  node.dataset.action = action;
  node.dataset.seat = String(seat);
  return node;
}

export class TableCards {
  constructor(container, template, cardName, rulesetName) {
    this.container = container;
    this.template = template;
    this.cardName = cardName;
    this.rulesetName = rulesetName;
    this.cards = new Map(); // table id -> {node, shown}
  }

  // Draw the tables of a hall view; `seats` maps a table id to its seats with join links.
  update(tables, seats) {
    const wanted = new Set(tables.map((table) => String(table.id)));
    for (const [id, card] of this.cards) {
      if (!wanted.has(id)) {
        card.node.remove();
        this.cards.delete(id);
      }
    }
    tables.forEach((table, index) => {
      const id = String(table.id);
      let card = this.cards.get(id);
      if (!card) {
        card = { node: this.template.content.firstElementChild.cloneNode(true), shown: "" };
        card.node.dataset.table = id;
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
    setText(node, ".status-badge", (STATUS[table.status] || (() => table.status))());
    setText(node, ".table-meta", `${this.rulesetName(table.ruleset)} · ${(ROLL_MODE[table.roll_mode] || (() => table.roll_mode))()}`);
    setText(node, ".turn", this.turnText(table));
    for (const action of ["start", "pause", "resume", "end"]) {
      const allowed = {
        start: table.status === "setup", pause: table.status === "running",
        resume: table.status === "paused", end: table.status !== "ended",
      }[action];
      node.querySelector(`[data-action="${action}"]`).hidden = !allowed;
    }
    node.querySelector(".setup-tools .add-player-form").hidden = table.status !== "setup";
    node.querySelector(".correction").hidden = table.status === "setup";
    this.drawPlayers(node, table, seats);
    this.drawEntries(node, table);
    this.drawSeatChoice(node, table);
  }

  turnText(table) {
    if (table.status === "setup") return t("Not started yet.");
    if (table.winner !== null && table.winner !== undefined) {
      return t("Won by {name}.", { name: table.players[table.winner].name });
    }
    if (table.result) {  // a game over without a single winner: the co-op pair shares its result
      const won = table.result.outcomes.every((outcome) => outcome === "won");
      return won ? t("Game over: the players won together.") : t("Game over: the players lost.");
    }
    const dice = table.dice && table.dice.length ? ` ${t("Dice: {dice}.", { dice: table.dice.join(" + ") })}` : "";
    const waiting = table.waiting && WAITING[table.waiting] ? ` ${WAITING[table.waiting]()}.` : "";
    return t("Turn {turn}: {name} is active.", { turn: table.turn, name: table.active_name || "" }) + dice + waiting;
  }

  drawPlayers(node, table, seats) {
    const body = node.querySelector("tbody");
    body.replaceChildren();
    table.players.forEach((player) => {
      const row = element("tr");
      if (player.seat === table.active && table.status !== "setup") row.className = "active";
      row.append(element("td", String(player.seat + 1), "num"));
      const name = element("td");
      name.append(element("bdi", player.name));
      row.append(name);
      row.append(element("td", player.coins === null ? "–" : String(player.coins), "num coins"));
      const landmarks = player.landmarks.map((id) => this.cardName(id)).join(", ");
      row.append(element("td", landmarks || "–"));
      const link = element("td");
      const seat = seats.find((s) => s.seat === player.seat);
      if (seat) {
        const anchor = element("a", t("Join link of {name}", { name: player.name }), "join-link");
        anchor.href = seat.join_url || seat.join_path;
        link.append(anchor);
      }
      row.append(link);
      const actions = element("td");
      actions.append(button(t("New link"), "reassign", player.seat));
      if (table.status === "setup") actions.append(button(t("Remove"), "remove", player.seat));
      row.append(actions);
      body.append(row);
    });
  }

  drawEntries(node, table) {
    const list = node.querySelector(".entries");
    list.replaceChildren();
    for (const entry of table.entries || []) {
      const card = entry.card === "adjustment" ? t("correction") : this.cardName(entry.card);
      const from = entry.from_seat === "bank" ? t("the bank") : entry.from;
      const to = entry.to_seat === "bank" ? t("the bank") : entry.to;
      let text = t("{amount} from {from} to {to} ({card})", { amount: entry.amount, from, to, card });
      if (entry.reason) text += `: ${entry.reason}`;
      if (entry.forgiven) text += ` ${t("{n} forgiven", { n: entry.forgiven })}`;
      list.append(element("li", text));
    }
  }

  drawSeatChoice(node, table) {
    const select = node.querySelector(".adjust-form select[name=seat]");
    const chosen = select.value;
    select.replaceChildren(...table.players.map((player) => {
      const option = element("option", player.name);
      option.value = String(player.seat);
      return option;
    }));
    if (chosen !== "" && table.players.some((p) => String(p.seat) === chosen)) select.value = chosen;
  }
}

// The journal of a table (GET /api/tables/ID/journal) as readable lines, newest move first.
export function drawAudit(container, moves, players, cardName) {
  const name = (seat) => (players[seat] ? players[seat].name : String(seat));
  const party = (account) => (account === "bank" ? t("the bank") : name(account));
  const describe = (kind, data) => {
    switch (kind) {
      case "DiceRolled":
        return t("{name} rolled {dice}", { name: name(data.seat), dice: data.dice.join(" + ") })
          + (data.reroll ? ` (${t("reroll")})` : "");
      case "CoinsTransferred":
        return t("{amount} from {from} to {to} ({card})", {
          amount: data.amount, from: party(data.source), to: party(data.target), card: cardName(data.card),
        }) + (data.forgiven ? ` ${t("{n} forgiven", { n: data.forgiven })}` : "");
      case "CoinsAdjusted":
        return t("Correction of {amount} for {name}: {reason}", {
          amount: data.amount > 0 ? `+${data.amount}` : String(data.amount), name: name(data.seat), reason: data.reason,
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
        return t("{name} rolls {count} dice from now on", { name: name(data.seat), count: data.count });
      case "RerollOffered":
        return t("A reroll is offered (Radio Tower)");
      case "RollResolved":
        return t("Roll resolved") + (data.extra_turn ? `; ${t("an extra turn")}` : "")
          + (data.pending.length ? `; ${t("waiting for a choice")}` : "");
      case "ChoiceAnswered":
        return t("Choice made: {choice}", { choice: choiceName(data.choice) });
      case "EstablishmentsSwapped":
        return t("{name} gave {give} to {other} for {take}", {
          name: name(data.seat), other: name(data.other), give: cardName(data.give), take: cardName(data.take),
        });
      default:
        return `${kind} ${JSON.stringify(data)}`;
    }
  };
  const choiceName = (choice) => cardName(choice);
  const author = (who) => {
    const seat = /^seat (\d+)$/.exec(who);
    if (seat) return name(Number(seat[1]));
    return { hall: t("the hall roll"), organizer: t("the organizer"), timer: t("the turn timer") }[who] || who;
  };
  if (!moves.length) {
    container.replaceChildren(element("p", t("No moves yet.")));
    return;
  }
  const list = element("ol", undefined, "audit-moves");
  list.reversed = true;
  for (const move of [...moves].reverse()) {
    const item = element("li");
    item.value = move.move;
    item.append(element("strong", t("Move {n} by {author}", { n: move.move, author: author(move.author) })));
    const events = element("ul");
    for (const event of move.events) events.append(element("li", describe(event.kind, event.data)));
    item.append(events);
    list.append(item);
  }
  container.replaceChildren(list);
}
