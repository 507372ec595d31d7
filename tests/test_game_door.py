"""The one door to every game (scorekeeper.game) and the one fold (scorekeeper.log): all ten
games in one registry, the command line and the app folding every game the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import log
from scorekeeper.cli import main
from scorekeeper.game import GAMES, Game, get_game, read_setup, setup_json
from scorekeeper.games import UnknownGameError
from scorekeeper.games.base import NoEndHandPreviewError
from scorekeeper.games.toss_hearts import TossHearts

TEN = {"complex-toss-rummy", "toss-rummy", "toss-colors", "toss-hearts", "tossni", "tong-its",
       "indian-chief", "carousel", "three-thirteen", "rummy"}


def test_every_game_is_in_the_one_registry_behind_one_protocol() -> None:
    assert set(GAMES) == TEN
    for name, game in GAMES.items():
        assert isinstance(game, Game) and game.name == name
        described = json.loads(json.dumps(game.describe()))
        assert described["name"] == name and described["engine"] == game.engine
        # the game lists its own events; the fold answers the shared ones at every table
        assert not {"correction", "undo", "amend"} & set(game.event_types)
        setup = read_setup({"game": name, "players": ["ann", "bob", "cy"]})
        assert log.event_types(setup) == (*game.event_types, "correction", "undo", "amend")
    assert get_game("toss-rummy").title == "Toss Rummy"
    assert get_game("Complex Toss Rummy").name == "complex-toss-rummy"
    with pytest.raises(UnknownGameError, match="unknown game 'poker'"):
        get_game("poker")


@pytest.mark.parametrize("name", sorted(TEN))
def test_every_game_starts_undoes_and_reads_back_its_setup(name: str) -> None:
    players = ["ann", "bob", "cy"]
    setup = read_setup({"game": name, "players": players})
    assert setup.game == name and list(setup.players) == players
    assert setup_json(read_setup(setup_json(setup))) == setup_json(setup)
    state = log.start(setup)
    assert state.events_applied == 0 and len(state.boards()) == 3
    with pytest.raises(log.NothingToUndoError, match="nothing to undo"):
        log.apply(state, {"type": "undo"})
    with pytest.raises(log.UnknownEventError, match="unknown event type 'bogus'"):
        log.apply(state, {"type": "bogus"})
    with pytest.raises(log.MalformedEventError):
        log.apply(state, ["not", "an", "object"])


def test_games_command_lists_all_ten(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert {g["name"] for g in listing} == TEN
    assert main(["games", "toss-rummy"]) == 0
    described = json.loads(capsys.readouterr().out)
    assert described["engine"] == "toss" and described["players"] == {"min": 2, "max": 6}


def _export(client: FlaskClient, body: dict[str, Any], events: list[dict[str, Any]]) -> Any:
    table = client.post("/api/tables", json=body).json
    auth = {"Authorization": f"Bearer {table['keeper_token']}"}
    for seq, event in enumerate(events):
        reply = client.post(f"/api/tables/{table['table_id']}/events", headers=auth,
                            json={"base_seq": seq, "event": event})
        assert reply.status_code == 201, reply.json
    return client.get(f"/api/tables/{table['table_id']}/export.json", headers=auth).json


def _replay(tmp_path: Path, document: Any) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "scorekeeper", "replay", str(path)],
                          capture_output=True, text=True, check=False)


def test_replay_reads_the_apps_export_of_a_complex_table(client: FlaskClient,
                                                         tmp_path: Path) -> None:
    document = _export(client, {"game": "complex-toss-rummy", "players": ["ann", "bob"]}, [
        {"type": "new-hand", "dealer": "ann"},
        {"type": "meld", "player": "bob", "cards": ["7cl", "7sp", "7he"]},
        {"type": "correction", "target": "ann", "points": 5, "reason": "miscount"},
    ])
    assert document["setup"]["game"] == "complex-toss-rummy"
    done = _replay(tmp_path, document)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == document["state"]


def test_replay_reads_the_apps_export_of_a_hand_by_hand_table(client: FlaskClient,
                                                              tmp_path: Path) -> None:
    document = _export(client, {"game": "toss-hearts", "players": ["ann", "bob"]}, [
        {"type": "hand", "entry": {"taken": {"ann": ["Qsp"], "bob": ["2he"]}}},
        {"type": "undo"},
        {"type": "hand", "entry": {"taken": {"bob": ["Qsp"]}}},
    ])
    done = _replay(tmp_path, document)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == document["state"]
    document["events"].append({"seq": 4, "event": {"type": "bogus"}})
    refused = _replay(tmp_path, document)
    assert refused.returncode == 2 and json.loads(refused.stdout)["index"] == 3


def test_the_same_malformed_event_gets_the_same_status_at_every_table(
        client: FlaskClient) -> None:
    statuses = {}
    for game in ("complex-toss-rummy", "toss-hearts", "toss-rummy", "tong-its"):
        table = client.post("/api/tables", json={"game": game,
                                                 "players": ["ann", "bob", "cy"]}).json
        reply = client.post(f"/api/tables/{table['table_id']}/events",
                            headers={"Authorization": f"Bearer {table['keeper_token']}"},
                            json={"base_seq": 0, "event": {"type": "bogus"}})
        statuses[game] = reply.status_code
        assert "unknown event type 'bogus'" in reply.json["error"]
    assert set(statuses.values()) == {400}, statuses


def test_every_error_is_an_input_error_or_a_rule_refusal() -> None:
    from scorekeeper import cards, chips, deadwood, engine, games, melds, options, tally
    from scorekeeper.cli import InputError
    from scorekeeper.errors import InvalidInputError, RuleRefusalError, http_status
    from scorekeeper.games.session import SessionError
    from scorekeeper.vision.art import ArtMissingError
    from scorekeeper.vision.errors import VisionError

    for error in (cards.CardError, engine.EventError, engine.SetupError, options.OptionError,
                  tally.TallyError, deadwood.DeadwoodError, chips.ChipError, InputError,
                  VisionError, games.UnknownGameError, ArtMissingError,
                  log.MalformedCorrectionError):
        assert issubclass(error, InvalidInputError) and http_status(error("x")) == 400
    for error in (engine.RuleViolation, melds.IllegalPlay, games.HandEntryError, SessionError,
                  log.CorrectionRefusedError):
        assert issubclass(error, RuleRefusalError) and not issubclass(error, InvalidInputError)
    assert http_status(engine.RuleViolation("x")) == 422


def test_each_game_describes_its_pages_and_sums_up_its_hands() -> None:
    from scorekeeper.cards import Card
    from scorekeeper.games import get_game as get_pack

    hearts = get_pack("toss-hearts")
    points = hearts.describe()["ui"]["card_points"]
    assert points["Qsp"] == 13 and points["7he"] == 1
    assert all(hearts.card_value(Card.parse(code)) == n for code, n in points.items())
    assert get_pack("three-thirteen").describe()["ui"]["wild_rank"] == {"first": 3}
    assert get_pack("tong-its").describe()["ui"]["lowest_first"] is False
    setup = read_setup({"game": "three-thirteen", "players": ["ann", "bob"]})
    state = log.replay(setup, [{"type": "hand", "entry": {
        "went_out": "ann", "hands": {"ann": ["4cl", "5cl", "3he"], "bob": ["Kcl"]}}}])
    assert state.to_json()["hands"][0]["summary"] == "3s wild"
    colors = read_setup({"game": "toss-colors", "players": ["a", "b", "c"]})
    state = log.replay(colors, [{"type": "hand", "entry": {
        "bidder": "a", "partner": "b", "bid": 3, "tricks": {"a": 2, "b": 2, "c": 1}}}])
    assert state.to_json()["hands"][0]["summary"] == "a bid 3 with b: made"


@pytest.mark.parametrize("game", ["complex-toss-rummy", "toss-hearts"])
def test_every_table_picks_default_colours_the_same_way(game: str) -> None:
    from scorekeeper.pegboard import PEG_COLOURS

    setup = read_setup({"game": game, "players": ["ann", "bob", "cy"],
                        "colours": {"bob": PEG_COLOURS["red"]}})
    colours = setup_json(setup)["colours"]
    assert colours == {"ann": PEG_COLOURS["blue"], "bob": PEG_COLOURS["red"],
                       "cy": PEG_COLOURS["gold"]}


# -- what a table offers is what its game says (the Game protocol's flags and standing) ---------

class PreviewedHearts(TossHearts):
    """A new game (Toss Hearts under another name) that offers proposals, an end-of-hand
    preview and its own standing, only by what the Game protocol lists."""

    name = "previewed-hearts"
    title = "Previewed Hearts"
    proposals = True
    end_hand_preview = True

    def preview_end_hand(self, state: Any, went_out: str | None,
                         hands: Any) -> dict[str, Any]:
        return {"went_out": went_out, "cards": {p: [c.code for c in cs]
                                                for p, cs in hands.items()}}

    def standing(self, state: Any) -> Any:
        import dataclasses

        return dataclasses.replace(super().standing(state), lower_wins=False)


@pytest.fixture
def previewed(monkeypatch: pytest.MonkeyPatch) -> Any:
    from scorekeeper import games

    game = PreviewedHearts()
    monkeypatch.setitem(GAMES, game.name, game)
    monkeypatch.setitem(games.GAMES, game.name, game)
    return game


def _table(client: FlaskClient, game: str) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"game": game, "players": ["ann", "bob"]})
    assert reply.status_code == 201, reply.json
    return dict(reply.json)


def test_a_game_without_the_features_is_refused_with_the_same_messages(
        client: FlaskClient) -> None:
    table = _table(client, "toss-hearts")
    described = get_game("toss-hearts").describe()["features"]
    assert described == {"proposals": False, "end_hand_preview": False}
    url = f"/api/tables/{table['table_id']}"
    preview = client.post(f"{url}/preview-end-hand",
                          headers={"Authorization": f"Bearer {table['keeper_token']}"},
                          json={"went_out": "ann", "hands": {"bob": ["2he"]}})
    assert preview.status_code == 400
    assert preview.json["error"] == ("this table plays a rules-pack game: preview a hand with "
                                     "dry-run")
    seat = {"Authorization": f"Bearer {table['seats']['ann']}"}
    propose = client.post(f"{url}/proposals", headers=seat,
                          json={"kind": "hand", "cards": ["2he"]})
    assert propose.status_code == 400
    assert propose.json["error"] == "at this table the keeper enters each hand: tell the keeper"
    with pytest.raises(NoEndHandPreviewError, match="preview a hand with dry-run"):
        get_game("toss-hearts").preview_end_hand(log.start(read_setup(
            {"game": "toss-hearts", "players": ["ann", "bob"]})), None, {})
    assert get_game("toss-rummy").describe()["features"] == {"proposals": True,
                                                             "end_hand_preview": True}


def test_a_new_game_offers_what_its_flags_say(client: FlaskClient, previewed: Any) -> None:
    table = _table(client, previewed.name)
    url = f"/api/tables/{table['table_id']}"
    preview = client.post(f"{url}/preview-end-hand",
                          headers={"Authorization": f"Bearer {table['keeper_token']}"},
                          json={"went_out": "ann", "hands": {"bob": ["2he", "Qsp"]}})
    assert preview.status_code == 200, preview.json
    assert preview.json["tally"] == {"went_out": "ann", "cards": {"bob": ["2he", "Qsp"]}}
    seat = {"Authorization": f"Bearer {table['seats']['ann']}"}
    propose = client.post(f"{url}/proposals", headers=seat,
                          json={"kind": "hand", "cards": ["2he"]})
    assert propose.status_code == 201 and propose.json["status"] == "pending"


def test_the_club_reads_a_tables_outcome_from_its_games_standing(previewed: Any) -> None:
    from scorekeeper.club.outcome import outcome

    hand = {"type": "hand", "entry": {"taken": {"ann": ["Qsp"], "bob": ["2he"]}}}
    plain = log.replay(read_setup({"game": "toss-hearts", "players": ["ann", "bob"]}), [hand])
    assert (outcome(plain).lower_wins, outcome(plain).leader) == (True, "bob")
    new = log.replay(read_setup({"game": previewed.name, "players": ["ann", "bob"]}), [hand])
    result = outcome(new)
    assert (result.lower_wins, result.leader, result.best_hand) == (
        False, "ann", {"ann": 13.0, "bob": 1.0})
    toss = log.replay(read_setup({"players": ["ann", "bob"]}), [
        {"type": "new-hand", "dealer": "ann"},
        {"type": "meld", "player": "bob", "cards": ["7cl", "7sp", "7he"]}])
    standing = get_game("complex-toss-rummy").standing(toss)
    assert standing.boards == {"ann": 0, "bob": 0} and standing.hand_no == 1  # under way
