"""The events every game shares, answered by the one fold (scorekeeper.log): ``correction``
read once with one set of messages and given to the game's ``adjust``, and ``undo`` answered
by the fold only; stored logs fold to the states they folded to when they were recorded."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import engine, log
from scorekeeper.errors import InvalidInputError, RuleRefusalError
from scorekeeper.game import GAMES, read_setup
from scorekeeper.games.session import SessionEventError, apply_session

STORED = json.loads((Path(__file__).parent / "vectors" / "stored_logs.json").read_text())


@pytest.mark.parametrize("stored", STORED["logs"], ids=lambda item: item["name"])
def test_stored_logs_fold_to_the_states_recorded(stored: dict[str, Any]) -> None:
    kinds = {e["type"] for e in stored["events"]}
    assert {"correction", "undo"} <= kinds
    states = [s.to_json() for s in log.trail(read_setup(stored["setup"]), stored["events"])]
    assert states[-1] == stored["final"]
    digest = hashlib.sha256(json.dumps(states, sort_keys=True).encode()).hexdigest()
    assert digest == stored["trail_sha256"]


def players_for(name: str) -> list[str]:
    return ["ann", "bob", "cy", "dee"][:max(GAMES[name].min_players, 2)]


def correction(**fields: object) -> dict[str, object]:
    return {"type": "correction", "target": "ann", "points": 10, "reason": "miscount",
            **fields}


MALFORMED = [
    (correction(target=None), "correction target None is neither a player nor a team"),
    (correction(points=None), "the correction needs its points: a whole number such as 10 or"
                              " -20"),
    (correction(points="5"), "\"points\" must be a whole number of points such as 10 or -20,"
                             " not '5'"),
    (correction(points=True), '"points" must be a whole number'),
    (correction(reason=7), '"reason" must be a sentence saying why the score is corrected'),
]
REFUSED = [
    (correction(points=0), "A correction of 0 points changes nothing."),
    (correction(reason="  "), "A correction needs a reason, so the table can see why the score"
                              " changed."),
    ({"type": "correction", "target": "ann", "points": 5}, "A correction needs a reason"),
]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_correction_reads_the_same_at_every_table(name: str) -> None:
    setup = read_setup({"game": name, "players": players_for(name)})
    state = log.start(setup)
    unknown = ("correction target 'zed' is neither a player nor a team at this table:"
               f' "target" is one of {", ".join(players_for(name))}')
    for event, words in [(correction(target="zed"), unknown), *MALFORMED]:
        with pytest.raises(log.MalformedCorrectionError) as caught:
            log.apply(state, event)
        assert isinstance(caught.value, InvalidInputError)
        assert str(caught.value).startswith(words)
    for event, words in REFUSED:
        with pytest.raises(log.CorrectionRefusedError, match=words) as refused:
            log.apply(state, event)
        assert isinstance(refused.value, RuleRefusalError)
    corrected = log.apply(state, correction(points=-15, reason=" carried over "))
    ann = next(p for p in corrected.to_json()["players"] if p["name"] == "ann")
    assert ann["score"] == -15 and corrected.events_applied == 1
    assert log.apply(corrected, {"type": "undo"}) is state


def test_a_team_is_corrected_on_its_board_and_named_in_the_message() -> None:
    setup = read_setup({"players": ["ann", "bob", "cy", "dee"],
                        "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]}})
    with pytest.raises(log.MalformedCorrectionError,
                       match='"target" is one of ann, bob, cy, dee, North, South'):
        log.apply(log.start(setup), correction(target="East"))
    state = log.apply(log.start(setup), correction(target="North", points=-15))
    assert [b["score"] for b in state.to_json()["boards"]] == [-15, 0]


def test_hand_by_hand_corrections_keep_the_reason_trimmed_and_the_hand() -> None:
    setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"]})
    state = log.replay(setup, [{"type": "hand", "entry": {"taken": {"ann": ["Qsp"]}}},
                               correction(target="bob", points=5, reason=" a miscount ")])
    assert state.to_json()["corrections"] == [
        {"target": "bob", "points": 5, "reason": "a miscount", "after_hand": 1}]


def test_a_correction_after_the_game_is_over_is_refused_by_the_game() -> None:
    setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"],
                        "options": {"limit": 10}})
    over = log.apply(log.start(setup), correction(points=20))
    assert over.to_json()["phase"] == "game-over"
    with pytest.raises(RuleRefusalError, match="the game is over"):
        log.apply(over, correction(target="bob"))
    toss = read_setup({"players": ["ann", "bob"], "options": {"goal": 50}})
    won = log.apply(log.start(toss), correction(points=60))
    assert won.to_json()["winner"] == "ann"
    with pytest.raises(engine.RuleViolation, match="The game is over"):
        log.apply(won, correction(target="bob"))


@pytest.mark.parametrize("kind", ["undo", "correction"])
def test_games_apply_only_their_own_events(kind: str) -> None:
    event = correction() if kind == "correction" else {"type": kind}
    toss = log.apply(log.start(read_setup({"players": ["ann", "bob"]})),
                     {"type": "new-hand", "dealer": "ann"})
    with pytest.raises(engine.EventError, match=f"unknown event type '{kind}'"):
        engine.apply(toss, event)
    hearts = log.start(read_setup({"game": "toss-hearts", "players": ["ann", "bob"]}))
    with pytest.raises(SessionEventError, match=f"unknown event type '{kind}': use one of hand"):
        apply_session(hearts, event)
    for name, game in GAMES.items():
        state = log.start(read_setup({"game": name, "players": players_for(name)}))
        with pytest.raises(InvalidInputError, match=f"unknown event type '{kind}'"):
            game.apply(state, event)


def test_a_correction_may_be_amended_and_undone_at_every_kind_of_table() -> None:
    for setup in (read_setup({"players": ["ann", "bob"]}),
                  read_setup({"game": "rummy", "players": ["ann", "bob"]})):
        fold = log.step(log.begin(setup), correction(points=5))
        amended = log.step(fold, {"type": "amend", "target": 1,
                                  "event": correction(points=50), "reason": "fifty"})
        assert amended.state.to_json()["players"][0]["score"] == 50
        with pytest.raises(log.MalformedAmendmentError, match='"event" is the corrected event'):
            log.step(fold, {"type": "amend", "target": 1, "event": {"type": "undo"},
                            "reason": "no"})
        with pytest.raises(log.AmendedEventInvalidError, match="neither a player nor a team"):
            log.step(fold, {"type": "amend", "target": 1, "event": correction(target="zed"),
                            "reason": "who"})


def test_the_same_malformed_correction_gets_the_same_answer_at_every_table(
        client: FlaskClient) -> None:
    answers = {}
    for game in ("complex-toss-rummy", "toss-rummy", "toss-hearts", "tong-its"):
        table = client.post("/api/tables", json={"game": game,
                                                 "players": ["ann", "bob", "cy"]}).json
        auth = {"Authorization": f"Bearer {table['keeper_token']}"}
        url = f"/api/tables/{table['table_id']}/events"
        for event in (correction(target="zed"), correction(points=0)):
            reply = client.post(url, headers=auth, json={"base_seq": 0, "event": event})
            answers.setdefault(json.dumps(event), set()).add(
                (reply.status_code, reply.json["error"]))
        assert client.get(f"/api/tables/{table['table_id']}/state").json["seq"] == 0
    assert [len(a) for a in answers.values()] == [1, 1], answers
    assert {next(iter(a))[0] for a in answers.values()} == {400, 422}
