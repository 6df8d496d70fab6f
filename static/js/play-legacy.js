// A Machi Koro Legacy game on the phone (templates/play/parts/legacy.html): the seat's three
// landmarks by letter code, the community landmark with who has contributed and the contribute
// button, and the cards played by hand. play.js draws the rest as for Machi Koro (roll,
// choices, build list, city, the others).
//
// A Legacy game's cards are its campaign's catalog, frozen when the game started: they come in
// the view (`legacy.cards`, names in every language), not in the page data play.js reads its
// card list from. So this module first puts them there, in play.js's form and the page's
// language, before play.js reads it: it has no static import, so the page runs its first lines
// before play.js (a module later in the page); the drawing below loads its modules after.

const LANG = document.documentElement.lang || "en";
const named = (texts) => texts?.[LANG] || texts?.en || "";

// The game's cards as play.js reads them (machi_koro/views.py `cards_json`): establishments,
// my own three landmarks (with my cost), and the others, named only.
function pageCards(view) {
  const legacy = view?.legacy;
  if (!legacy) return [];
  const mine = new Map((legacy.landmarks?.[view.seat] ?? []).map((lm) => [lm.id, lm]));
  return legacy.cards.map((card) => {
    const effect = card.effect ?? card.bonus ?? {};
    const base = { id: card.id, name: named(card.names) || card.id, effect: effect.kind, amount: effect.amount ?? 0 };
    if (card.kind === "establishment") {
      return { ...base, kind: "establishment", colour: card.colour, icon: card.label, activation: card.activation, cost: card.cost };
    }
    if (card.kind === "landmark" && mine.has(card.id)) return { ...base, kind: "landmark", cost: mine.get(card.id).cost };
    return { ...base, kind: `legacy-${card.kind}`, cost: card.cost };
  });
}

const dataNode = document.getElementById("page-data");
const pageData = JSON.parse(dataNode.textContent);
pageData.cards = pageCards(pageData.view);
dataNode.textContent = JSON.stringify(pageData);

// ------------------------------------------------------------------ drawing (after play.js)

const [{ refusal, t }, { $, bdi, fill, h, num, tx }, play, { coinWords, turnReason }] = await Promise.all([
  import("./i18n.js"), import("./dom.js"), import("./play.js"), import("./play-build.js"),
]);

let view = pageData.view;

// Why the contribution is closed, in words (the seat view's `contribute.why`).
function contributeWhy(contribute) {
  if (contribute.why === "contributed") return t("You have contributed in this game.");
  if (contribute.why === "coins") {
    return contribute.short === 1 ? t("1 more coin needed.") : t("{n} more coins needed.", { n: contribute.short });
  }
  if (contribute.why === "built_this_turn") return t("You have used this turn's action.");
  return turnReason({ why: contribute.why });
}

function draw() {
  const legacy = view.legacy;
  $("legacy").hidden = !legacy;
  if (!legacy) return;
  drawGoal(legacy);
  drawLandmarks(legacy);
  drawCommunity(legacy);
  drawManual(legacy);
}

function drawGoal(legacy) {
  const needs = legacy.needs?.[view.seat];
  if (!needs || (!needs.landmarks && !needs.contribute)) {
    fill($("legacy-goal"));
    return;
  }
  const n = needs.landmarks;
  let words;
  if (n && needs.contribute) {
    words = n === 1 ? t("To win: build 1 more landmark and contribute to the community landmark.")
      : t("To win: build {n} more landmarks and contribute to the community landmark.", { n });
  } else if (n) {
    words = n === 1 ? t("To win: build 1 more landmark.") : t("To win: build {n} more landmarks.", { n });
  } else {
    words = t("To win: contribute to the community landmark.");
  }
  $("legacy-goal").textContent = words;
}

function drawLandmarks(legacy) {
  const options = new Map((view.builds?.cards ?? []).map((option) => [option.card, option]));
  const shared = turnReason(view.builds);
  fill($("legacy-landmarks"), (legacy.landmarks?.[view.seat] ?? []).map((lm) => {
    const option = options.get(lm.id) ?? { card: lm.id };
    let state = "closed";
    let why;
    if (lm.built) {
      state = "built";
      why = t("Built.");
    } else if (option.why === "coins") {
      why = option.short === 1 ? t("1 more coin needed.") : t("{n} more coins needed.", { n: option.short });
    } else if (shared) {
      why = shared;
    } else if (!option.why) {
      state = "open";
      why = t("You can build it now: in the list below.");
    } else {
      why = t("Not possible now.");
    }
    return h("li", { class: state, "data-landmark": lm.id, "data-letter": lm.letter },
      h("span", { class: "letter" }, h("span", { class: "visually-hidden" }, `${t("Letter")} `), lm.letter),
      h("span", { class: "name" }, bdi(named(lm.names)), lm.built ? h("span", { "aria-hidden": "true" }, " ★") : null),
      h("span", { class: "cost" }, coinWords(lm.cost)),
      h("p", { class: "why" }, why));
  }));
}

let confirming = false;

function drawCommunity(legacy) {
  const community = legacy.community;
  const contribute = view.contribute ?? { cost: community.cost, why: "not_running" };
  fill($("legacy-community-title"), tx("Community landmark: {name}", { name: bdi(named(community.names)) }));
  const bonus = community.bonus ?? {};
  const bonusWords = bonus.kind === "coins" ? tx("you get {n} back from the bank", { n: num(bonus.amount) })
    : bonus.kind === "manual" ? named(bonus.text) : null;
  fill($("legacy-community-meta"), tx("Each player contributes {cost} once a game, as a turn's action.", { cost: coinWords(community.cost) }),
    bonusWords ? [" ", tx("Bonus: {bonus}.", { bonus: bonusWords })] : null);
  const contributed = new Set(community.contributed ?? []);
  fill($("legacy-contributors"), view.players.map((player) => h("li", { class: contributed.has(player.seat) ? "yes" : "no" },
    bdi(player.seat === view.seat ? t("me") : player.name), " ",
    h("span", { class: "visually-hidden" }, contributed.has(player.seat) ? t("has contributed") : t("has not contributed")))));
  const open = !contribute.why;
  const button = $("legacy-contribute");
  button.textContent = t("Contribute {n} coins", { n: contribute.cost });
  button.disabled = !open;
  button.hidden = confirming && open;
  $("legacy-contribute-confirm").hidden = !(confirming && open);
  $("legacy-contribute-ok").textContent = t("Yes, contribute {n} coins", { n: contribute.cost });
  $("legacy-contribute-why").textContent = open ? t("Open: this is your turn's one action.") : contributeWhy(contribute);
}

function drawManual(legacy) {
  const lines = legacy.manual ?? [];
  $("legacy-manual").hidden = lines.length === 0;
  const cards = new Map(legacy.cards.map((card) => [card.id, card]));
  fill($("legacy-manual-list"), lines.map((line) => {
    const card = cards.get(line.card);
    const name = card ? named(card.names) : line.card;
    const owner = view.players[line.seat]?.name ?? "";
    return h("li", {}, tx("{name}: {card} ×{copies}", { name: bdi(owner), card: h("strong", {}, bdi(name)), copies: num(line.copies) }),
      card?.effect?.kind === "manual" ? h("span", { class: "text" }, " ", bdi(named(card.effect.text))) : null);
  }));
}

// ------------------------------------------------------------------ the contribution

const REFUSED = {
  "legacy/already_contributed": () => t("You have contributed in this game."),
  "legacy/not_your_landmark": () => t("That landmark is not one of yours."),
};

$("legacy-contribute").addEventListener("click", () => {
  confirming = true;
  draw();
  $("legacy-contribute-ok").focus();
});
$("legacy-contribute-cancel").addEventListener("click", () => {
  confirming = false;
  draw();
  $("legacy-contribute").focus();
});
$("legacy-contribute-ok").addEventListener("click", async (event) => {
  const ok = event.currentTarget;
  ok.disabled = true;
  confirming = false;
  const name = named(view.legacy.community.names);
  await play.act({ kind: "contribute" }, t("You contributed to {name}.", { name }),
    { refused: (answer) => REFUSED[answer.code]?.() ?? refusal(answer.code, answer.message) });
  ok.disabled = false;
  draw();
});

document.addEventListener("companion:view", (event) => {
  if (event.detail.seq < (view?.seq ?? -1)) return;
  if (event.detail.turn !== view?.turn) confirming = false;
  view = event.detail;
  draw();
});
draw();
