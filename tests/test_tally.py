"""The end-of-hand tally (RULES.md 2-3) and the ``scorekeeper tally`` command."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from scorekeeper.cards import TooManyCopiesError, parse_cards
from scorekeeper.cli import main
from scorekeeper.rulesets import TossOptions
from scorekeeper.tally import (
    TeamError,
    UnknownPlayerError,
    WentOutWithCardsError,
    tally_hand,
)

COMPLEX = TossOptions()
TOSS = TossOptions(ruleset="toss-rummy")
TEAMS = {"North": ["ann", "cy"], "South": ["bob", "dee"]}


def cards(text: str) -> list[Any]:
    return parse_cards(text)


def test_melded_for_hand_against_with_ruleset_values() -> None:
    melded = {"ann": cards("7cl 7sp 7he 7di"), "bob": cards("Acl Kcl Qcl")}
    hands = {"ann": cards("boss 3he"), "bob": []}
    complex_result = tally_hand(melded, hands, COMPLEX, None, "bob")
    assert complex_result.players["ann"].melded_points == 28
    assert complex_result.players["ann"].hand_points == 53
    assert complex_result.players["ann"].net == 28 - 53
    assert complex_result.players["bob"].net == 40
    toss_result = tally_hand(melded, hands, TOSS, None, "bob")
    assert toss_result.players["ann"].melded_points == 20
    assert toss_result.players["ann"].net == 20 - 55
    assert complex_result.teams == {}
    assert "teams" not in complex_result.to_json()


def test_team_negative_exemption_covers_only_the_team_of_who_went_out() -> None:
    melded = {"ann": cards("Kcl Ksp Khe"), "cy": cards("2cr 3cr 4cr")}
    hands = {"ann": [], "cy": cards("Acl"), "bob": cards("7di boss"), "dee": cards("5sh")}
    result = tally_hand(melded, hands, COMPLEX, TEAMS, "ann")
    cy = result.players["cy"]
    assert (cy.exempt, cy.hand_points, cy.net) == (True, 20, 9)
    assert result.players["ann"].exempt is False
    assert result.players["bob"].exempt is False and result.players["bob"].net == -57
    assert result.players["dee"].net == -5
    assert result.teams == {"North": 39, "South": -62}
    assert result.to_json()["teams"] == {"North": {"net": 39}, "South": {"net": -62}}


def test_no_one_out_means_no_exemption() -> None:
    hands = {"ann": cards("Kcl"), "cy": cards("Acl"), "bob": [], "dee": []}
    result = tally_hand({}, hands, COMPLEX, TEAMS, None)
    assert not any(p.exempt for p in result.players.values())
    assert result.teams["North"] == -30


def test_team_members_absent_from_the_input_count_as_empty() -> None:
    result = tally_hand({"ann": cards("Kcl Ksp Khe")}, {}, COMPLEX, TEAMS, "ann")
    assert set(result.players) == {"ann", "cy", "bob", "dee"}
    assert result.players["dee"].net == 0


@pytest.mark.parametrize(
    ("melded", "hands", "teams", "went_out", "error", "words"),
    [
        ({"ann": cards("Kcl Ksp Khe")}, {"bob": cards("Kcl")}, None, None,
         TooManyCopiesError, "Kcl appears 2 times"),
        ({}, {"ann": cards("Kcl"), "bob": []}, None, "ann", WentOutWithCardsError,
         "ann went out but still has 1 card"),
        ({}, {"ann": [], "bob": []}, {"N": ["ann", "bob"], "S": ["bob"]}, None, TeamError,
         "in two teams"),
        ({}, {"ann": [], "bob": []}, {"N": ["ann"]}, None, TeamError, "'bob' is in no team"),
        ({}, {"ann": [], "bob": []}, None, "zed", UnknownPlayerError, "'zed', who is not"),
    ],
)
def test_input_errors_are_value_errors_with_clear_messages(
        melded: dict[str, Any], hands: dict[str, Any], teams: Any, went_out: str | None,
        error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        tally_hand(melded, hands, COMPLEX, teams, went_out)
    assert isinstance(caught.value, ValueError)


def test_two_decks_allow_two_copies() -> None:
    result = tally_hand({"ann": cards("Kcl Kcl Ksp")}, {"bob": []},
                        TossOptions(decks=2), None, "bob")
    assert result.players["ann"].net == 30


def run_cli(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, json.loads(capsys.readouterr().out)


def test_cli_tally_of_the_documented_example(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"rules": "complex-toss-rummy", "decks": 1, "teams": TEAMS, "went_out": "ann",
           "players": {"ann": {"melded": ["Kcl", "Ksp", "Khe"], "hand": []},
                       "bob": {"melded": [], "hand": ["7di", "boss"]}}}
    code, out = run_cli(["tally", "-"], json.dumps(doc), monkeypatch, capsys)
    assert code == 0
    assert out["players"]["ann"] == {"melded_points": 30, "hand_points": 0,
                                     "exempt": False, "net": 30}
    assert out["players"]["bob"] == {"melded_points": 0, "hand_points": 57,
                                     "exempt": False, "net": -57}
    assert out["teams"] == {"North": {"net": 30}, "South": {"net": -57}}


def test_cli_tally_without_teams_has_no_teams_key(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"rules": "toss-rummy", "went_out": None,
           "players": {"ann": {"melded": ["7cl", "7sp", "7he"], "hand": ["2cl"]}}}
    code, out = run_cli(["tally", "-"], json.dumps(doc), monkeypatch, capsys)
    assert code == 0 and "teams" not in out
    assert out["players"]["ann"]["net"] == 10


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        ("{not json", "not valid JSON"),
        ('{"players": {"ann": {"hand": ["Kcx"]}}}', "unknown card code 'Kcx'"),
        ('{"players": {"ann": {"melded": ["Kcl"], "hand": ["Kcl"]}}}', "Kcl appears 2 times"),
        ('{"went_out": "ann", "players": {"ann": {"hand": ["Kcl"]}}}', "still has 1 card"),
        ('{"went_out": "zed", "players": {"ann": {}}}', "'zed', who is not a player"),
        ('{"teams": {"N": ["ann"], "S": ["ann"]}, "players": {"ann": {}}}', "in two teams"),
        ('{"rules": "gin", "players": {"ann": {}}}', "unknown rules 'gin'"),
        ('{"players": {"ann": {"hand": ["jk"]}}}', "not in a toss deck"),
    ],
)
def test_cli_tally_refuses_bad_input_with_exit_2(stdin: str, words: str,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["tally", "-"], stdin, monkeypatch, capsys)
    assert code == 2
    assert words in out["error"]

