// The catalog of a Legacy campaign on the console (organizer-legacy.js draws the rest): its
// cards by kind with their place (in play, reserve, archive), and the editor of a new card (its
// kind, names in every language, and the fields its kind and effect take, as the rules read
// them: companion/rules/legacy/entries.py). Nothing is checked here that the server checks: a
// refusal comes back naming the field's path, which is each input's data-path.

import { lang, t } from "./i18n.js";
import { activation, bdi, fill, h, num } from "./dom.js";

// A colour in words (a mayor's or a card's).
export const colourWord = (colour) => ({
  red: t("red"), blue: t("blue"), green: t("green"), yellow: t("yellow"), orange: t("orange"),
  purple: t("purple"), white: t("white"), black: t("black"),
}[colour] ?? colour);

const LABELS = ["wheat", "cow", "bread", "cup", "gear", "factory", "fruit", "tower"];
const CARD_COLOURS = ["blue", "green", "red", "purple"];
const LANGUAGES = ["en", "he", "nl"];
const MAYOR_COLOURS = ["red", "blue", "green", "yellow", "orange", "purple", "white", "black"];
const STATUSES = ["in_play", "reserve", "archive"];
// The effect kinds the rules play (companion/rules/legacy/entries.py), by card.
const EFFECTS = {
  blue: ["income", "income_per_icon", "manual"],
  green: ["income", "income_per_icon", "manual"],
  red: ["take_from_roller", "manual"],
  purple: ["take_from_each", "take_from_one", "swap", "manual"],
  landmark: ["two_dice", "reroll", "extra_turn_on_doubles", "mall_bonus", "none", "manual"],
  community: ["coins", "none", "manual"],
};
const WITH_AMOUNT = new Set(["income", "income_per_icon", "take_from_roller", "take_from_each", "take_from_one", "mall_bonus", "coins"]);

const effectName = (kind) => ({
  income: t("Income from the bank"), income_per_icon: t("Income per card counted"),
  take_from_roller: t("Take from the roller"), take_from_each: t("Take from each player"),
  take_from_one: t("Take from one player"), swap: t("Swap a card"), two_dice: t("Roll two dice"),
  reroll: t("Roll again"), extra_turn_on_doubles: t("Another turn on doubles"),
  mall_bonus: t("Bonus for cards with a label"), none: t("No effect"), coins: t("Coins from the bank"),
  manual: t("Played by hand"),
}[kind] ?? kind);
const labelWord = (label) => ({
  wheat: t("wheat"), cow: t("cow"), bread: t("bread"), cup: t("cup"), gear: t("gear"),
  factory: t("factory"), fruit: t("fruit"), tower: t("tower"),
}[label] ?? label);
const statusWord = (status) => ({ in_play: t("in play"), reserve: t("in the reserve"), archive: t("in the archive") }[status] ?? status);
const kindWord = (kind) => ({ establishment: t("Establishment"), landmark: t("Landmark"), community: t("Community landmark") }[kind]);

const inLang = (texts) => texts?.[lang] || texts?.en || "";
export const cardName = (card) => inLang(card.names) || card.id;

// An effect in words: its kind, amount and what it counts; a manual card's own text (the
// organizer's, in any language) kept in its direction.
export function effectWords(effect) {
  const parts = [effectName(effect.kind)];
  if (WITH_AMOUNT.has(effect.kind)) parts.push(" ", num(effect.amount));
  const per = effect.per;
  if (per) {
    const what = per.label ? labelWord(per.label) : per.colour ? colourWord(per.colour) : per.card;
    parts.push(" ", per.unique ? t("per different card with {what}", { what }) : t("per card with {what}", { what }));
  }
  if (effect.labels) parts.push(" (", effect.labels.map(labelWord).join(", "), ")");
  if (effect.kind === "manual") parts.push(": ", bdi(inLang(effect.text)));
  return parts;
}

// The campaign's cards by kind, each with its place (in play, reserve, archive) to change.
export function catalogList(cards, onStatus) {
  const status = (card) => {
    const select = h("select", { "aria-label": t("Place of {card}", { card: cardName(card) }), "data-card": card.id },
      STATUSES.map((value) => h("option", { value, selected: card.status === value }, statusWord(value))));
    select.addEventListener("change", () => onStatus(card.id, select.value, select));
    return h("td", { "data-notice-after": true }, select);
  };
  const table = (kind, heads, cells) => {
    const rows = cards.filter((card) => card.kind === kind);
    if (!rows.length) return null;
    return h("div", { class: "legacy-scroll" }, h("table", { class: "legacy-catalog", "data-kind": kind },
      h("caption", {}, kindWord(kind), " ", num(`(${rows.length})`)),
      h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)), h("th", { scope: "col" }, t("Status")))),
      h("tbody", {}, rows.map((card) => h("tr", { "data-card": card.id, class: card.status }, cells(card), status(card))))));
  };
  const list = [
    table("establishment", [t("Name"), t("Colour, label"), t("Activation"), t("Cost"), t("Effect"), t("Copies")], (card) => [
      h("td", {}, bdi(cardName(card)), card.town_square ? h("span", { class: "hint" }, " ", card.mayor_colour
        ? t("(the {colour} player's starting card)", { colour: colourWord(card.mayor_colour) }) : t("(starting card)")) : null),
      h("td", {}, h("span", { class: `legacy-swatch card-${card.colour}` }), " ", colourWord(card.colour), h("br"), labelWord(card.label)),
      h("td", { class: "num-cell" }, num(activation(card.activation))), h("td", { class: "num-cell" }, num(card.cost)),
      h("td", { class: "effect" }, effectWords(card.effect)), h("td", { class: "num-cell" }, num(card.copies))]),
    table("landmark", [t("Letter"), t("Name"), t("Cost"), t("Effect")], (card) => [
      h("td", {}, h("strong", { class: "legacy-letter" }, card.letter)), h("td", {}, bdi(cardName(card))),
      h("td", { class: "num-cell" }, num(card.cost)), h("td", { class: "effect" }, effectWords(card.effect))]),
    table("community", [t("Name"), t("Cost"), t("Bonus")], (card) => [
      h("td", {}, bdi(cardName(card))), h("td", { class: "num-cell" }, num(card.cost)), h("td", { class: "effect" }, effectWords(card.bonus))]),
  ].filter(Boolean);
  return list.length ? list : h("p", { class: "hint" }, t("The catalog is empty: add the cards of the box below."));
}

// The editor of a new card: its kind, names in every language, and the fields its kind and
// effect take; `onAdd(kind, entry, form)` sends it. A field's data-path is its path in the
// entry, so a refusal's field is marked.
let editors = 0;
export function cardsEditor(onAdd) {
  const n = ++editors;
  const id = (name) => `legacy-card-${n}-${name}`;
  const field = (name, label, input, kinds) => h("div", { class: "legacy-field", "data-for": kinds ?? "all" },
    h("label", { for: id(name) }, label), input);
  const input = (name, path, attrs = {}) => h("input", { id: id(name), name, "data-path": path, autocomplete: "off", ...attrs });
  const select = (name, path, values, word) => h("select", { id: id(name), name, "data-path": path },
    values.map((value) => h("option", { value }, word(value))));
  const checks = (name, path, values, word) => h("fieldset", { class: "legacy-checks", id: id(name), "data-path": path, tabindex: "-1" },
    values.map((value) => h("label", {}, h("input", { type: "checkbox", name, value }), " ", word(value))));
  const kinds = h("fieldset", { class: "legacy-kind" }, h("legend", {}, t("Kind of card")),
    ["establishment", "landmark", "community"].map((kind) => h("label", {},
      h("input", { type: "radio", name: "kind", value: kind, checked: kind === "establishment" }), " ", kindWord(kind))));
  const form = h("form", { class: "legacy-card-form", novalidate: true }, kinds,
    h("div", { class: "legacy-fields" },
      h("p", { class: "hint legacy-names-hint" }, t("One name is enough: the other languages show it until you give theirs.")),
      LANGUAGES.map((language) => field(`name-${language}`, {
        en: t("Name in English"), he: t("Name in Hebrew"), nl: t("Name in Dutch"),
      }[language], input(`name-${language}`, `names.${language}`, { maxlength: 60, lang: language, dir: "auto" }))),
      field("id", t("Id (a-z, 0-9 and _; empty: from the name)"), input("id", "id", { maxlength: 60, dir: "ltr" })),
      field("letter", t("Letter code"), input("letter", "letter", { maxlength: 2, size: 3, dir: "ltr" }), "landmark"),
      field("colour", t("Colour"), select("colour", "colour", CARD_COLOURS, colourWord), "establishment"),
      field("activation", t("Activation numbers (as 2, 3)"), input("activation", "activation", { inputmode: "numeric", dir: "ltr" }), "establishment"),
      field("cost", t("Cost"), input("cost", "cost", { type: "number", min: 0, step: 1, inputmode: "numeric" })),
      field("label", t("Label"), select("label", "label", LABELS, labelWord), "establishment"),
      field("copies", t("Copies in the supply"), input("copies", "copies", { type: "number", min: 0, step: 1, value: 6 }), "establishment"),
      h("div", { class: "legacy-field", "data-for": "establishment" },
        h("label", {}, h("input", { type: "checkbox", name: "town_square", "data-path": "town_square" }), " ", t("A starting card (town square)"))),
      field("mayor-colour", t("Whose starting card"), select("mayor-colour", "mayor_colour", ["", ...MAYOR_COLOURS],
        (colour) => (colour ? t("the {colour} player's", { colour: colourWord(colour) }) : t("every player's"))), "town"),
      field("effect", t("Effect"), h("select", { id: id("effect"), name: "effect", "data-path": "effect.kind" })),
      field("amount", t("Coins"), input("amount", "effect.amount", { type: "number", min: 1, step: 1 }), "amount"),
      field("per", t("Counted per card with"), h("span", { class: "legacy-per" },
        h("select", { id: id("per"), name: "per", "data-path": "effect.per", "aria-label": t("Counted by") },
          ["label", "colour", "card"].map((what) => h("option", { value: what }, { label: t("Label"), colour: t("Colour"), card: t("Card id") }[what]))),
        h("select", { name: "per-label", "aria-label": t("Label"), "data-path": "effect.per.label" }, LABELS.map((v) => h("option", { value: v }, labelWord(v)))),
        h("select", { name: "per-colour", "aria-label": t("Colour"), "data-path": "effect.per.colour" }, CARD_COLOURS.map((v) => h("option", { value: v }, colourWord(v)))),
        h("input", { name: "per-card", "aria-label": t("Card id"), "data-path": "effect.per.card", dir: "ltr" })), "per"),
      h("div", { class: "legacy-field", "data-for": "per" },
        h("label", {}, h("input", { type: "checkbox", name: "unique", "data-path": "effect.per.unique" }), " ", t("Each different card once"))),
      field("labels", t("Labels that earn the bonus"), checks("labels", "effect.labels", LABELS, labelWord), "labels"),
      LANGUAGES.map((language) => field(`text-${language}`, {
        en: t("The card's text in English"), he: t("The card's text in Hebrew (optional)"), nl: t("The card's text in Dutch (optional)"),
      }[language], h("textarea", { id: id(`text-${language}`), name: `text-${language}`, rows: 2, maxlength: 400, lang: language, dir: "auto", "data-path": `effect.text.${language}` }), "manual"))),
    h("p", { class: "hint", "data-for": "manual" }, t("A card played by hand: the phones show its text, and you settle it with a correction naming the card.")),
    h("button", { type: "submit" }, t("Add the card")));
  const els = form.elements;
  const kind = () => els.kind.value;
  const effectKinds = () => EFFECTS[kind() === "establishment" ? els.colour.value : kind()];
  const show = () => {
    const chosen = els.effect.value;
    const kinds = effectKinds();
    if (form.dataset.effects !== kinds.join()) {
      form.dataset.effects = kinds.join();
      fill(els.effect, kinds.map((value) => h("option", { value }, effectName(value))));
      if (kinds.includes(chosen)) els.effect.value = chosen;
    }
    const effect = els.effect.value;
    const shown = {
      all: true, establishment: kind() === "establishment", landmark: kind() === "landmark",
      town: kind() === "establishment" && els.town_square.checked,
      amount: WITH_AMOUNT.has(effect), per: effect === "income_per_icon", labels: effect === "mall_bonus", manual: effect === "manual",
    };
    for (const part of form.querySelectorAll("[data-for]")) part.hidden = !shown[part.dataset.for];
    for (const what of ["label", "colour", "card"]) form.querySelector(`[name="per-${what}"]`).hidden = els.per.value !== what;
    els.effect.previousElementSibling.textContent = kind() === "community" ? t("Bonus") : t("Effect");
  };
  form.addEventListener("change", show);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const entry = entryOf(form, kind());
    const done = await onAdd(kind() === "establishment" ? "establishments" : kind() === "landmark" ? "landmarks" : "community", entry, form);
    if (done) {
      for (const name of ["name-en", "name-he", "name-nl", "id", "letter", "activation", "cost", "amount", "text-en", "text-he", "text-nl"]) els[name].value = "";
    }
  });
  show();
  return { form, know: () => show() };
}

const snake = (text) => text.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 60);
const whole = (value) => (value.trim() === "" ? null : Number.isInteger(Number(value)) ? Number(value) : value.trim());

// The entry as the rules read it (entries.py); what the form cannot check the server names.
function entryOf(form, kind) {
  const els = form.elements;
  // the names given (one is enough: the server gives the others the first of en, he, nl)
  const names = Object.fromEntries(LANGUAGES.map((language) => [language, els[`name-${language}`].value.trim()])
    .filter(([, name]) => name));
  const named = names.en || names.nl || names.he || "";
  const entry = { id: els.id.value.trim() || snake(named), names, cost: whole(els.cost.value) };
  const effectKind = els.effect.value;
  const effect = { kind: effectKind };
  if (WITH_AMOUNT.has(effectKind)) effect.amount = whole(els.amount.value);
  if (effectKind === "income_per_icon") {
    const what = els.per.value;
    effect.per = { [what]: els[`per-${what}`].value.trim(), unique: els.unique.checked };
  }
  if (effectKind === "mall_bonus") effect.labels = [...form.querySelectorAll('input[name="labels"]:checked')].map((box) => box.value);
  if (effectKind === "manual") {
    effect.text = {};
    for (const language of LANGUAGES) {
      const text = els[`text-${language}`].value.trim();
      if (text || language === "en") effect.text[language] = text;
    }
  }
  if (kind === "establishment") {
    const numbers = els.activation.value.split(/[\s,;]+/).filter(Boolean).map(whole);
    return { ...entry, colour: els.colour.value, activation: numbers, label: els.label.value, effect,
      copies: whole(els.copies.value), town_square: els.town_square.checked,
      ...(els.town_square.checked && els["mayor-colour"].value ? { mayor_colour: els["mayor-colour"].value } : {}) };
  }
  if (kind === "landmark") return { ...entry, letter: els.letter.value.trim().toUpperCase(), effect };
  return { ...entry, bonus: effect };
}
