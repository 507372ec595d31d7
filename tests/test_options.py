"""One option system: every game's options declared once (scorekeeper.options.Option), the Toss
rulesets' included, read by the start page, ``scorekeeper games``, the games' descriptions and
the one option error; and one setup format for ``POST /api/tables``."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.cli import main
from scorekeeper.game import GAMES, get_game, read_setup, setup_json
from scorekeeper.options import Option, OptionError
from scorekeeper.pegboard import PEG_COLOURS
from scorekeeper.rulesets import TOSS_OPTIONS, TossOptions


def test_the_toss_options_are_the_declared_options_with_their_defaults() -> None:
    declared = {o.name: o.default for o in TOSS_OPTIONS}
    assert {f.name: f.default for f in fields(TossOptions)} == declared
    assert TossOptions().to_json() == declared
    assert declared["double_cross_takes"] == "whole-play" and declared["ace"] == "both"


@pytest.mark.parametrize(("game", "offered"), [
    ("complex-toss-rummy", ["ace", "goal", "decks", "toss_joker", "double_cross_back",
                            "double_cross_takes"]),
    ("toss-rummy", ["ace", "goal", "wild_scoring", "chips_per_points", "decks", "toss_joker",
                    "double_cross_takes"]),
])
def test_each_toss_ruleset_describes_the_options_it_offers(game: str,
                                                           offered: list[str]) -> None:
    described = get_game(game).describe()["options"]
    assert [o["name"] for o in described] == offered
    takes = next(o for o in described if o["name"] == "double_cross_takes")
    assert takes["choices"] == ["whole-play", "toss-meld"] and "Toss meld only" in takes["help"]
    goal = next(o for o in described if o["name"] == "goal")
    assert goal["default"] is None and goal["unset"] == (1000 if game.startswith("complex")
                                                         else 1010)


def test_every_game_describes_its_options_from_one_declaration() -> None:
    for game in GAMES.values():
        described = game.describe()["options"]
        assert [o["name"] for o in described] == [o.name for o in game.options]
        for option, shown in zip(game.options, described, strict=True):
            assert isinstance(option, Option)
            assert {k: v for k, v in shown.items() if k != "unset"} == option.to_json()


@pytest.mark.parametrize(("game", "options", "words"), [
    ("toss-rummy", {"colour": 3}, "Toss Rummy has no option 'colour'"),
    ("toss-hearts", {"colour": 3}, "Toss Hearts has no option 'colour'"),
    ("complex-toss-rummy", {"ace": "sideways"}, 'option "ace" must be one of both, high, low'),
    ("toss-hearts", {"moon": "sideways"}, 'option "moon" must be one of minus, plus'),
    ("complex-toss-rummy", {"decks": "2"}, 'option "decks" (the number of decks) must be a'
                                           " whole number, not '2'"),
    ("complex-toss-rummy", {"decks": 21}, "must be from 1 to 20, not 21"),
    ("toss-rummy", {"double_cross_back": "no"}, "must be true or false, not 'no'"),
])
def test_a_bad_option_is_the_one_option_error_saying_how_to_fix_it(
        game: str, options: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError) as caught:
        read_setup({"game": game, "players": ["ann", "bob"], "options": options})
    assert words in str(caught.value)


def test_scorekeeper_games_lists_the_toss_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "toss-rummy"]) == 0
    described = json.loads(capsys.readouterr().out)
    chips = next(o for o in described["options"] if o["name"] == "chips_per_points")
    assert chips == {"name": "chips_per_points", "kind": "int", "default": 10, "minimum": 1,
                     "help": "points per chip when the game is settled in chips"}


def test_scorekeeper_rules_takes_the_ace_choices_from_the_declaration(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["meld", "--ace", "sideways", "Qcl", "Kcl", "Acl"])
    assert "'both', 'high', 'low'" in json.loads(capsys.readouterr().out)["error"]


# -- the one setup format of POST /api/tables ----------------------------------------------

def test_a_table_is_created_from_the_one_setup_format(client: FlaskClient) -> None:
    setup = {"game": "toss-rummy", "players": ["Ann", "Bob", "Cy", "Dee"],
             "teams": {"North": ["Ann", "Cy"], "South": ["Bob", "Dee"]},
             "colours": {"South": "green"}, "options": {"goal": 500}}
    reply = client.post("/api/tables", json=setup)
    assert reply.status_code == 201, reply.json
    table = client.get(f"/api/tables/{reply.json['table_id']}").json
    expected = setup_json(read_setup({**setup, "colours": {"South": PEG_COLOURS["green"]}}))
    assert table["setup"] == expected
    assert table["setup"]["colours"] == {"North": PEG_COLOURS["red"],
                                         "South": PEG_COLOURS["green"]}


def test_the_earlier_format_gives_the_same_table(client: FlaskClient) -> None:
    one = {"game": "complex-toss-rummy", "players": ["Ann", "Bob", "Cy"],
           "colours": {"Bob": "#123456"}}
    earlier = {"game": "complex-toss-rummy",
               "players": ["Ann", {"name": "Bob", "colour": "#123456"}, {"name": "Cy"}],
               "teams": []}
    setups = [client.get(f"/api/tables/{client.post('/api/tables', json=b).json['table_id']}"
                         ).json["setup"] for b in (one, earlier)]
    assert setups[0] == setups[1]
    assert setups[0]["colours"]["Bob"] == "#123456"


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "toss-hearts", "players": ["Ann", "Bob"], "teams": {"N": ["Ann", "Bob"]}},
     "Toss Hearts is not played in teams"),
    ({"players": ["Ann", "Bob"], "teams": {"N": "Ann"}}, "team N must list its members"),
    ({"players": ["Ann", "Bob"], "colours": {"Ann": "mauve"}}, "is not a colour"),
    ({"players": ["Ann", "Bob"], "colours": {"Cy": "red"}}, "owns no board"),
    ({"players": ["Ann", "Bob"], "colours": ["red"]}, '"colours" must map'),
])
def test_bad_setups_in_the_one_format_are_refused(app: Flask, client: FlaskClient,
                                                  body: dict[str, Any], words: str) -> None:
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 400 and words in reply.json["error"], reply.json
    assert app.extensions["scorekeeper.store"].table_ids() == []
