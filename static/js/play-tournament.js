// A tournament table's phone once the table has ended (its round closed): where the player
// stands in the tournament and what comes next, in place of the ended game's prompt, last roll
// and market (issue 25, item 8). The standings come from the tournament's public view; a table
// ends a moment before its round's results are recorded, so the view is asked again until the
// round shows closed. The next round's `moved` (play.js) then takes the phone to its new seat.
// Loaded by play.html at a tournament's tables only, so the other phones fetch nothing more
// (tests/browser/test_phone_transfer.py): it reads the view play.js keeps, every second.

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { data, view } from "./play.js";
import { refresh, roundName, stageLine } from "./tournament-common.js";

const GAME_PARTS = ["prompt", "last-roll", "build"];
let following = false;

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function standingWords(shown, name) {
  const ranked = shown.ranking?.find((line) => line.name === name);
  if (ranked) return t("You finished the tournament in place {rank}.", { rank: ranked.rank });
  const line = shown.standings.find((l) => l.name === name);
  if (!line) return "";
  return t("You are number {rank} of {count}: {wins} wins · {points} points.", {
    rank: line.rank, count: shown.standings.length, wins: line.wins, points: line.points,
  });
}

function drawAfter(shown, name) {
  const current = shown.current;
  const closed = current && !current.open;
  $("tournament-after-title").textContent = closed
    ? t("{round} is over.", { round: roundName(current.round, current.stage) })
    : t("Your table has ended; the round is still being played.");
  $("tournament-standing").textContent = closed ? standingWords(shown, name) : "";
  let after = [t("This phone goes to your next seat when it starts.")];
  if (shown.ranking) {
    const first = shown.ranking.filter((r) => r.rank === 1).map((r) => r.name);
    after = [first.length > 1 ? t("Shared first place:") : t("Winner:"), " ", h("bdi", {}, first.join(" · "))];
  }
  $("tournament-next").replaceChildren(h("strong", {}, stageLine(shown)), h("br"), ...after);
  return closed;
}

async function follow(eventId, name) {
  for (let tries = 0; ; tries += 1) {
    try {
      if (drawAfter(await refresh(eventId), name)) return;
    } catch {
      // offline for a moment: asked again below
    }
    await sleep(tries < 10 ? 1500 : 20000); // the round's results follow its tables' ends
  }
}

// The panel in place of the ended game's parts (play.js draws the view, this after it).
function drawTournament() {
  const ended = view?.table.status === "ended";
  $("tournament-after").hidden = !ended;
  if (!ended) return;
  for (const id of GAME_PARTS) $(id).hidden = true;
  $("status").textContent = ""; // not "The table has ended.": the panel says what it means
  if (!following) {
    following = true;
    follow(data.tournament.event, view.players[view.seat].name);
  }
}

drawTournament();
setInterval(drawTournament, 1000);
