"""The games' commands: deadwood, indian-chief, score, games, and chips for Tong-Its and Toss
Colors. JSON out; exit 0 for a result, 2 with {"error": ...} for malformed input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr().out
    return code, json.loads(out)


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_score_toss_hearts_a_100_left_by_a_renege_hand_stays_and_the_lowest_wins(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "toss-hearts", "totals": {"a": 100, "b": 95, "c": 60},
                            "taken": {"b": ["2he", "3he", "4he", "5he", "6he", "7he", "8he",
                                            "9he", "10he", "Jhe"]}})
    code, result = run(capsys, "score", path)
    assert code == 0
    assert result["totals"] == {"a": 100, "b": 105, "c": 60}
    assert result["game_over"] is True and result["winner"] == "c"
    assert not any("back to 0" in note for note in result["notes"])


@pytest.mark.parametrize("taken", [["", "2he"], "2he,,3he"])
def test_score_refuses_an_empty_card_code_in_a_hand_form(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, taken: Any) -> None:
    path = write(tmp_path, {"game": "toss-hearts", "totals": {"a": 0, "b": 0},
                            "taken": {"b": taken}})
    code, result = run(capsys, "score", path)
    assert code == 2 and "empty card code ''" in result["error"]


def test_deadwood_command_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "deadwood", "--game", "three-thirteen",
         "--hand-no", "6", "8cl", "8sp", "8he", "8di", "Acl", "2cl", "4cl", "5sp", "6sp", "Kdi",
         "Qdi", "9he", "10he"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["deadwood"] == 0 and result["unmatched"] == []
    hand = ["8cl", "8sp", "8he", "8di", "Acl", "2cl", "4cl", "5sp", "6sp", "Kdi", "Qdi", "9he",
            "10he"]
    assert sorted(c for m in result["melds"] for c in m) == sorted(hand)


def test_bad_input_in_a_real_process_exits_2_with_an_error() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "deadwood", "--game", "tong-its", "Kcl", "10dia"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2
    assert "did you mean '10di'" in json.loads(proc.stdout)["error"]
    assert "10dia" in proc.stderr


def test_deadwood_tong_its(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "deadwood", "--game", "tong-its", "Ahe,2he,3he", "Qsp", "Ksp",
                       "Asp")
    assert code == 0
    assert result == {"deadwood": 21, "melds": [["Ahe", "2he", "3he"]],
                      "unmatched": ["Asp", "Qsp", "Ksp"]}


@pytest.mark.parametrize("argv, message", [
    (["deadwood", "--game", "three-thirteen", "5he"], "needs --hand-no"),
    (["deadwood", "--game", "three-thirteen", "--hand-no", "12", "5he"], "hands 1 to 11"),
    (["deadwood", "--game", "tong-its", "--hand-no", "3", "5he"], "Three Thirteen only"),
    (["deadwood", "--game", "tong-its", "Kcl", "Kcl"], "Kcl appears 2 times"),
    (["deadwood", "--game", "tong-its", "5cr"],
     "5cr is not in a standard deck: this game uses the standard suits cl, sp, he, di"),
    (["deadwood", "--game", "tong-its", "jk", "5he"], "no jokers"),
    (["deadwood", "--game", "gin", "5he"], "invalid choice"),
    (["deadwood", "--game", "tong-its", "--decks", "0", "5he"], "--decks"),
])
def test_deadwood_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str],
                            message: str) -> None:
    code, result = run(capsys, *argv)
    assert code == 2
    assert message in result["error"]


def test_deadwood_two_decks_allow_duplicates(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "deadwood", "--game", "three-thirteen", "--hand-no", "1",
                       "--decks", "2", "7he", "7he", "7cl")
    assert code == 0 and result["deadwood"] == 0


def test_indian_chief_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "indian-chief", "beggar-man", "--opponents", "7cl,7di Kdi",
                       "--opponents", "2he", "7he", "Kcl")
    # 7cl, 7di and Kdi match the ranks of 7he and Kcl: 3 x 2 (the 2he does not)
    assert code == 0 and result == {
        "points": 6,
        "reason": "Beggar Man scores 2 per opponents' card of its ranks: 3 cards match, 6 points",
    }
    code, result = run(capsys, "indian-chief", "doctor", "--suit", "SP", "Ahe", "2cl", "3sp",
                       "4sp", "5sp", "6cl")
    assert (code, result["points"]) == (0, 30)
    code, result = run(capsys, "indian-chief", "indian-chief", "Khe", "Qhe", "Jhe", "10he", "Ahe",
                       "9cl", "8sp")
    assert (code, result["points"]) == (0, 52)
    assert "straight flush" in result["reason"]
    code, result = run(capsys, "indian-chief", "lawyer", "Kcl", "9he", "5sp", "2di")
    assert (code, result["points"]) == (0, 0)


@pytest.mark.parametrize("argv, message", [
    (["indian-chief", "lawyer", "Kcl"], "the Lawyer is 4 card"),
    (["indian-chief", "king", "Kcl"], "invalid choice"),
    (["indian-chief", "thief", "--opponents", "2he", "Kcl"], "Beggar Man only"),
    (["indian-chief", "doctor", "--suit", "cr", "Ahe", "2cl", "3sp", "4sp", "5sp", "6cl"],
     "names a suit of"),
    (["indian-chief", "beggar-man", "--opponents", "Kcl", "Kcl", "2he"], "Kcl appears 2"),
])
def test_indian_chief_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str],
                                message: str) -> None:
    code, result = run(capsys, *argv)
    assert code == 2 and message in result["error"]


def test_score_toss_hearts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "toss-hearts", "totals": {"ann": 90, "bob": 80},
                            "taken": {"ann": ["Qsp"], "bob": ["2he"]}, "moon": "minus",
                            "limit": 100})
    code, result = run(capsys, "score", path)
    assert code == 0
    assert {k: result[k] for k in ("hand", "totals", "game_over", "winner")} == {
        "hand": {"ann": 13, "bob": 1}, "totals": {"ann": 103, "bob": 81},
        "game_over": True, "winner": "bob",
    }


def test_score_toss_colors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "toss-colors", "totals": {"ann": 0, "bob": 0, "cy": 0},
                            "bidder": "ann", "partner": "bob", "bid": 5, "nil": False,
                            "alone": False, "tricks": {"ann": 3, "bob": 3, "cy": 2}})
    code, result = run(capsys, "score", path)
    assert code == 0
    assert result["hand"] == {"ann": 55, "bob": 55, "cy": 10}


def test_score_rummy_and_carousel(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "rummy", "totals": {"ann": 0, "bob": 0}, "winner": "bob",
                            "hands": {"ann": ["Kcl", "3he"]}, "rummy": True})
    code, result = run(capsys, "score", path)
    assert (code, result["hand"]) == (0, {"ann": 0, "bob": 26})
    path = write(tmp_path, {"game": "carousel", "totals": {"ann": 0, "bob": 0}, "knocker": "ann",
                            "hands": {"ann": ["2he"], "bob": ["Kcl"]}})
    code, result = run(capsys, "score", path)
    assert (code, result["hand"], result["winner"]) == (0, {"ann": 8, "bob": 0}, None)


def test_score_from_stdin(capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(
        {"game": "tossni", "totals": {"ann": 0, "bob": 0}, "order": ["bob", "ann"]})))
    code, result = run(capsys, "score", "-")
    assert (code, result["hand"]) == (0, {"ann": 0, "bob": 1})


@pytest.mark.parametrize("data, message", [
    ({"totals": {}}, '"game" must name a game'),
    ({"game": "bridge"}, "unknown game 'bridge'"),
    ({"game": "rummy", "winner": "ann", "hands": {"bob": ["Kcl", "Kcl"]}}, "Kcl appears 2"),
    ({"game": "rummy", "winner": "ann", "hands": {"bob": ["Kxx"]}}, "unknown card code 'Kxx'"),
    ({"game": "toss-hearts", "totals": {"ann": "ten"}, "taken": {}}, "whole number"),
    ({"game": "three-thirteen", "hands": {}}, 'needs "hand_no"'),
    ([1, 2], "JSON object"),
])
def test_score_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any,
                         message: str) -> None:
    code, result = run(capsys, "score", write(tmp_path, data))
    assert code == 2 and message in result["error"]


def test_score_unreadable_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, result = run(capsys, "score", str(bad))
    assert code == 2 and "not valid JSON" in result["error"]


def test_games_command_lists_and_describes(capsys: pytest.CaptureFixture[str]) -> None:
    code, listing = run(capsys, "games")
    assert code == 0 and "tong-its" in {g["name"] for g in listing}
    code, described = run(capsys, "games", "toss-hearts")
    assert code == 0
    assert [o["name"] for o in described["options"]] == ["moon", "limit", "renege_hand"]
    assert described["hand_form"][0]["name"] == "taken"


def test_chips_tong_its(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "tong-its", "players": ["ann", "bob", "cy"], "hands": [
        {"winner": "ann", "win": "tongit", "concealed_fours": 0, "aces": 1, "not_opened": ["cy"]},
        {"winner": "ann", "win": "draw", "concealed_fours": 0, "aces": 0, "not_opened": []},
    ]})
    code, result = run(capsys, "chips", path)
    assert code == 0
    assert result["hands"][0] == {"payments": [{"from": "bob", "to": "ann", "chips": 4},
                                               {"from": "cy", "to": "ann", "chips": 5}],
                                  "pot": 6, "pot_to": None}
    assert result["hands"][1]["pot_to"] == "ann" and result["hands"][1]["pot"] == 0
    assert result["net"] == {"ann": -4 + 9 + 2 + 12, "bob": -4 - 4 - 1, "cy": -4 - 5 - 1}


def test_chips_toss_colors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "toss-colors", "players": ["ann", "bob", "cy"],
                            "start_chips": 9, "split": "equal", "hands": [
                                {"bidder": "ann", "partner": "bob", "made": False},
                                {"bidder": "cy", "partner": "ann", "made": True}]})
    code, result = run(capsys, "chips", path)
    assert code == 0
    assert result == {"hands": [{"pot": 9}, {"pot": 0}],
                      "chips": {"ann": 12, "bob": 3, "cy": 12}, "game_over": False}


def test_chips_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"game": "toss-colors", "players": ["ann", "bob"], "start_chips": 0})
    code, result = run(capsys, "chips", path)
    assert code == 2 and "start_chips" in result["error"]
    path = write(tmp_path, {"game": "tong-its", "players": ["ann", "bob", "cy"],
                            "hands": [{"winner": "dan", "win": "draw"}]})
    code, result = run(capsys, "chips", path)
    assert code == 2 and "unknown player 'dan'" in result["error"]
