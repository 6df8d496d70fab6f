// The draw at the cut (RULES.md 28, templates/tournament/parts/cut_draw.html): the players
// equal at the cut on wins, points, landmarks and coins, named before the round they would
// play; once the server has drawn among them, who got the seats left, shown as a draw.
// The console's panel calls drawCut with each view; the projector's box (data-follow) follows
// the public view by itself, so the projector's own script needs no change for it.

import { $, bdi, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { data, refresh } from "./tournament-common.js";

const FOLLOW_SECONDS = 5;

function line(cut) {
  const values = { seats: cut.seats, count: cut.count };
  if (cut.drawn) return t("Drawn by the server among the players equal at the cut, for {seats} of the {count} seats:", values);
  return cut.count === 16
    ? t("Equal at the cut for {seats} of the {count} seats of the semi-finals: the server draws among them when the semi-finals start.", values)
    : t("Equal at the cut for {seats} of the {count} seats of the final: the server draws among them when the final starts.", values);
}

export function drawCut(cut) {
  const box = $("cut-draw");
  if (!box) return;
  box.hidden = !cut;
  if (!cut) return;
  $("cut-draw-line").textContent = line(cut);
  fill($("cut-draw-players"), cut.tied.map((name) => {
    if (!cut.drawn) return h("li", {}, bdi(name));
    const through = cut.drawn.includes(name);
    return h("li", { "data-drawn": through ? "in" : "out" }, bdi(name), " ",
      h("span", { class: "cut-draw-result" }, through ? t("drawn: plays on") : t("not drawn")));
  }));
}

const box = $("cut-draw");
if (box && box.dataset.follow) {
  let view = data();
  drawCut(view.cut);
  setInterval(async () => {
    try {
      view = await refresh(view.event.id);
      drawCut(view.cut);
    } catch {
      // the next look tries again; the box keeps what it shows
    }
  }, FOLLOW_SECONDS * 1000);
}
