"""The rules commands: ``meld``, ``chips`` and ``peg`` (JSON out; exit 0 verdict, 2 bad input)."""

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
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out = capsys.readouterr().out
    return code, json.loads(out)


def run_console(*argv: str, stdin: str = "") -> tuple[int, Any, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "scorekeeper", *argv],
        input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )
    return proc.returncode, json.loads(proc.stdout), proc.stderr


# --- the real console entry -----------------------------------------------------------------

def test_console_meld_verdict() -> None:
    code, result, _ = run_console("meld", "Kcl", "jk-red", "Khe")
    assert code == 0
    assert result == {
        "valid": True, "kind": "set", "points": 60, "top_cards": ["Kcl", "jk-red", "Khe"],
        # K 10 + K 10 + a joker 40 (RULES.md 2)
        "reason": "valid set of kings with jk-red standing in: 3 cards worth 60 points"
                  " (Complex Toss Rummy values)",
        "rule": "set (complex-toss-rummy values)",
    }


def test_console_unknown_card_exits_2_naming_the_token() -> None:
    code, result, stderr = run_console("meld", "10dia", "9di", "8di")
    assert code == 2
    assert result == {"error": "unknown card code '10dia': did you mean '10di'?"}
    assert "10dia" in stderr


def test_console_five_jokers_are_no_joker_set() -> None:
    code, result, _ = run_console("meld", "boss", "jk-black", "jk-red", "jk-gold", "jk-blue")
    assert code == 0
    assert result["valid"] is False and result["points"] == 0
    assert 'seed: "Three or four Jokers can be melded as a set"' in result["reason"]


def test_console_meld_with_an_empty_card_code_exits_2_naming_it() -> None:
    code, result, stderr = run_console("meld", "", "Kcl", "Ksp")
    assert code == 2
    assert result == {"error": "empty card code '' at item 1 of 3: remove it, or write the"
                               " card's code there, like 10di or boss"}
    assert "empty card code ''" in stderr


@pytest.mark.parametrize("argv", [
    ("deadwood", "--game", "three-thirteen", "--hand-no", "1", "Kcl", "", "Ksp"),
    ("meld", "Kcl,,Ksp", "Khe"),
])
def test_every_card_command_refuses_an_empty_code(capsys: pytest.CaptureFixture[str],
                                                  argv: tuple[str, ...]) -> None:
    code, result = run(capsys, *argv)
    assert code == 2 and "empty card code ''" in result["error"]


def test_console_chips_from_stdin_and_peg() -> None:
    data = {"game": "toss-rummy", "chips_per_points": 10, "totals": {"ann": 1040, "bob": 815}}
    code, result, _ = run_console("chips", "-", stdin=json.dumps(data))
    assert code == 0
    assert result == {"payments": [{"from": "bob", "to": "ann", "chips": 23}],
                      "net": {"ann": 23, "bob": -23}}
    code, result, _ = run_console("peg", "-437")
    assert (code, result) == (0, {"negative": True, "thousands": 0, "hundreds": 4, "tens": 3,
                                  "ones": 7})


# --- meld -----------------------------------------------------------------------------------

def test_invalid_meld_is_a_verdict_with_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "meld", "Kcl", "Acl", "2cl")
    assert code == 0
    assert result["valid"] is False and result["kind"] is None and result["points"] == 0
    assert result["top_cards"] == []
    assert result["reason"] == "Kcl-Acl-2cl wraps around the ace: K-A-2 is never a sequence"


def test_meld_accepts_one_comma_separated_argument(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "meld", "8di,9di,10di")
    assert code == 0 and result["kind"] == "sequence" and result["top_cards"] == ["8di", "10di"]
    code, result = run(capsys, "meld", "8di,", "9di,10di")
    assert code == 0 and result["valid"] is True


def test_meld_rules_option_changes_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "meld", "7cl", "7sp", "7he", "7di")[1]["points"] == 28
    code, result = run(capsys, "meld", "--rules", "toss-rummy", "7cl", "7sp", "7he", "7di")
    assert code == 0 and result["points"] == 20 and "toss-rummy" in result["rule"]


def test_meld_ace_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "meld", "Ahe", "2he", "3he")[1]["valid"] is True
    code, result = run(capsys, "meld", "--ace", "high", "Ahe", "2he", "3he")
    assert code == 0 and result["valid"] is False and "ace=high" in result["rule"]
    assert run(capsys, "meld", "--ace", "low", "Qhe", "Khe", "Ahe")[1]["valid"] is False


def test_meld_decks_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "meld", "Qhe", "Qhe", "Qcl")
    assert code == 2
    # RULES.md 1: at most N copies with N decks; the message says what to change.
    assert result == {"error": "Qhe appears 2 times but 1 deck holds only 1: remove the extra"
                               " copy, or give --decks 2 if the table plays with 2 decks"}
    code, result = run(capsys, "meld", "null", "null", "null", "Kcl")
    assert code == 2 and result["error"].endswith("give --decks 2 if the table plays with 2 decks")
    code, result = run(capsys, "meld", "--decks", "2", "Qhe", "Qhe", "Qcl")
    assert code == 0 and result["valid"] is True and result["kind"] == "set"


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["meld", "Kcl", "Kxx", "Khe"], "'Kxx'"),
     (["meld", "Kcl", "jk", "Khe"], "jk is not in a toss deck: a Toss deck's jokers are boss,"),
     (["meld", "--decks", "0", "Kcl", "Ksp", "Khe"], "number of decks"),
     (["meld", "--decks", "two", "Kcl"], "invalid int value"),
     (["meld", "--ace", "wrap", "Kcl"], "invalid choice"),
     (["meld", "--rules", "gin", "Kcl"], "invalid choice"),
     (["meld"], "required"),
     (["peg", "lots"], "invalid int value")],
)
def test_malformed_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                 message: str) -> None:
    code, result = run(capsys, *argv)
    assert code == 2
    assert set(result) == {"error"} and message in result["error"]


def test_too_short_meld_is_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, result = run(capsys, "meld", "boss", "jk-red")
    assert code == 0 and result["valid"] is False and "at least 3 cards" in result["reason"]


# --- chips ----------------------------------------------------------------------------------

def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "chips.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_chips_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = {"game": "toss-rummy", "chips_per_points": 10,
            "totals": {"ann": 1040, "bob": 815, "cy": 990}}
    code, result = run(capsys, "chips", write(tmp_path, data))
    assert code == 0
    assert result == {
        "payments": [{"from": "bob", "to": "ann", "chips": 23},
                     {"from": "cy", "to": "ann", "chips": 5}],
        "net": {"ann": 28, "bob": -23, "cy": -5},
    }


def test_chips_tie_is_an_input_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = {"game": "toss-rummy", "totals": {"ann": 1010, "bob": 1010}}
    code, result = run(capsys, "chips", write(tmp_path, data))
    assert code == 2
    assert result == {"error": "no settlement: ann and bob tie at 1010; the game plays on"}


def test_chips_unknown_game_lists_known_ones(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    code, result = run(capsys, "chips", write(tmp_path, {"game": "bridge", "totals": {}}))
    assert code == 2
    assert result["error"] == (
        "unknown chip game 'bridge': known games are tong-its, toss-colors, toss-rummy"
    )


def test_chips_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, result = run(capsys, "chips", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in result["error"]
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    code, result = run(capsys, "chips", str(broken))
    assert code == 2 and "is not valid JSON" in result["error"]
    code, result = run(capsys, "chips", write(tmp_path, {"game": "toss-rummy",
                                                         "totals": {"ann": "lots", "bob": 1}}))
    assert code == 2 and "total of ann must be a whole number" in result["error"]


def test_chips_team_play_splits_among_members(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    # RULES.md 4: South pays round_half_up((1040 - 830) / 10) = 21; each of its three members
    # pays 7; North's two members get 10 each and the odd chip stays in the pot.
    data = {"game": "toss-rummy", "totals": {"North": 1040, "South": 830},
            "teams": {"North": ["ann", "cy"], "South": ["bob", "dee", "eve"]}}
    code, result = run(capsys, "chips", write(tmp_path, data))
    assert code == 0
    assert result == {
        "payments": [{"from": "South", "to": "North", "chips": 21}],
        "net": {"North": 21, "South": -21},
        "members": {"ann": 10, "cy": 10, "bob": -7, "dee": -7, "eve": -7},
        "pot": 1,
    }


# --- peg ------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("score", "expected"),
    [("437", (False, 0, 4, 3, 7)), ("0", (False, 0, 0, 0, 0)), ("1040", (False, 1, 0, 4, 0)),
     ("-25", (True, 0, 0, 2, 5)), ("2999", (False, 2, 9, 9, 9))],
)
def test_peg(capsys: pytest.CaptureFixture[str], score: str,
             expected: tuple[bool, int, int, int, int]) -> None:
    code, result = run(capsys, "peg", score)
    assert code == 0
    assert result == dict(zip(("negative", "thousands", "hundreds", "tens", "ones"), expected,
                              strict=True))
