"""Journals written before still replay (issue 11, stable stored names): golden journals of two
fixed seeded games, a base game of three and a co-op pair, played through the real hall service
and stored as its table streams' records (tests/golden/*.json). A rename of an event class, a
record kind or a field that breaks stored journals fails here.

The files are made once by `python tests/test_golden_journal.py --write`; they are data, never
made again by a test. Each holds the position its game reached, which the replay must reach."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.hall.replay import rebuild_table, rules_of
from companion.journal import Record

GOLDEN = Path(__file__).parent / "golden"
GAMES = {"machi-koro": ["Ann", "Bo", "Cy"], "machi-koro-coop": ["Dee", "Eli"]}
MOVES = 160
# A co-op pair played to its end (seed 1: the last tax card drawn, the final round, the game
# lost), for the one stored kind the short games never reach: FinalRoundBegan (issue 28 item 4).
# Written apart (`--write-final`), compact, the two files above left as they were written.
FINAL = {"file": "machi-koro-coop-final", "ruleset": "machi-koro-coop", "seed": 1, "moves": 900}


def position(table: Any) -> dict[str, Any]:
    """What a replay must reach: every player's coins, cards and landmarks, and the turn."""
    state = getattr(table.state, "table", table.state)  # a co-op state's cities: its base table
    return {"phase": state.phase.value, "turn": state.turn, "active": state.active,
            "winner": state.winner, "seq": table.seq, "moves": table.moves[-1].number,
            "players": [{"coins": p.coins, "cards": dict(sorted(p.cards.items())),
                         "landmarks": sorted(p.landmarks)} for p in state.players]}


@pytest.mark.parametrize("ruleset", [*GAMES, FINAL["file"]])
def test_golden_journal_replays_to_the_position_it_was_written_at(ruleset):
    golden = json.loads((GOLDEN / f"{ruleset}.json").read_text(encoding="utf-8"))
    records = [Record(golden["stream"], seq, r["kind"], r["data"], r["request_id"], r["author"],
                      "2026-11-24T00:00:00+00:00")
               for seq, r in enumerate(golden["records"], start=1)]
    table = rebuild_table(records)
    assert position(table) == golden["position"]
    kinds = {r.kind for r in records}
    assert kinds & rules_of(table).fact_kinds >= {"DiceRolled", "TurnEnded", "EstablishmentBought"}


def test_golden_journal_of_a_whole_coop_game_holds_its_final_round():
    golden = json.loads((GOLDEN / f"{FINAL['file']}.json").read_text(encoding="utf-8"))
    kinds = [r["kind"] for r in golden["records"]]
    assert "FinalRoundBegan" in kinds and kinds[-1] == "CoopGameEnded"


def test_golden_journal_every_event_has_its_own_stored_name():
    """Every event class of every ruleset names its KIND, and no two share one."""
    from typing import get_args

    from companion.rules.coop.facts import COOP_FACT_TYPES
    from companion.rules.machi_koro.facts import Fact

    classes = [*get_args(Fact), *COOP_FACT_TYPES]
    kinds = [cls.KIND for cls in classes]
    assert len(set(kinds)) == len(classes) > 12


# ---------------------------------------------------------------- making the files (once)


def play(ruleset: str, folder: Path, seed: int = 11, moves: int = MOVES) -> dict[str, Any]:
    """A seeded game through the hall service: dice and shuffles from `random.Random(seed)`,
    and each turn's move picked by it among the legal ones (a build most often)."""
    from companion.hall import dice, hall_roll, play, registry
    from companion.hall.service import HallService
    from companion.journal import SqliteJournal
    from companion.rules.coop import codec as coop_codec
    from companion.rules.coop import engine as coop_engine
    from companion.rules.machi_koro import codec, options

    legal, wire = ((coop_engine.legal_moves, coop_codec.wire_move) if ruleset == "machi-koro-coop"
                   else (options.legal_moves, codec.wire_move))
    seeded = random.Random(seed)
    dice.roll = lambda count: tuple(seeded.randint(1, 6) for _ in range(count))
    for module in (play, registry, hall_roll):  # each took the name at import
        module.secure_shuffle = lambda cards: tuple(seeded.sample(list(cards), len(cards)))
    with SqliteJournal(folder / f"{ruleset}.db") as journal:
        hall = HallService(journal)
        event = hall.create_event("Golden")
        table = hall.create_table(event.id, "T", GAMES[ruleset], ruleset=ruleset, roll_mode="own")
        hall.set_status(table.id, "start")
        for n in range(moves):
            base = getattr(table.state, "table", table.state)  # a co-op state's cities
            if base.phase.value == "finished" or getattr(table.state, "outcome", None):
                break
            seat = base.active
            choices = [wire(m) for m in legal(table.state, seat, table.setup)]
            builds = [o for o in choices if o["kind"] == "build"]
            others = [o for o in choices if o["kind"] not in ("dice_count", "build")]
            move = seeded.choice(builds if builds and seeded.random() < 0.7 else others or choices)
            answer = hall.move(table.seats[seat].token, f"g{n}", move)
            assert answer["ok"], (move, answer)
        records = journal.read(table.stream)
        return {"stream": table.stream, "position": position(table),
                "records": [{"kind": r.kind, "data": r.data, "request_id": r.request_id,
                             "author": r.author} for r in records]}


if __name__ == "__main__" and sys.argv[1:] == ["--write-final"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        game = play(FINAL["ruleset"], Path(tmp), FINAL["seed"], FINAL["moves"])
    (GOLDEN / f"{FINAL['file']}.json").write_text(
        json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(FINAL["file"], len(game["records"]), "records", game["position"]["turn"], "turns")

if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    GOLDEN.mkdir(exist_ok=True)
    for name in GAMES:
        with tempfile.TemporaryDirectory() as tmp:
            game = play(name, Path(tmp))
        (GOLDEN / f"{name}.json").write_text(json.dumps(game, ensure_ascii=False, indent=1) + "\n",
                                             encoding="utf-8")
        print(name, len(game["records"]), "records", game["position"]["turn"], "turns")
