"""The ``scorekeeper replay`` command, run as a real subprocess and through ``main``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from simulate import random_game

from scorekeeper.cli import main
from scorekeeper.engine import TableSetup
from scorekeeper.log import replay

SETUP = {"players": ["ann", "bob", "cy", "dee"],
         "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]}}


def run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, json.loads(capsys.readouterr().out)


def test_replay_file_prints_the_final_state(tmp_path: Path) -> None:
    setup = TableSetup.from_json(SETUP)
    events = random_game(setup, seed=11, max_events=120)
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"setup": SETUP, "events": events}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == replay(setup, events).to_json()


def test_replay_names_the_first_refused_event(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"setup": SETUP, "events": [
        {"type": "new-hand", "dealer": "dee"},
        {"type": "meld", "player": "ann", "cards": ["Kcl", "Ksp", "Khe"], "top": None},
        {"type": "next-turn"},
        {"type": "meld", "player": "cy", "cards": ["Qcl", "Qsp", "Qhe"], "top": None},
        {"type": "undo"},
    ]}
    code, out = run(["replay", "-"], json.dumps(doc), monkeypatch, capsys)
    assert code == 2
    assert out["index"] == 3
    assert out["error"] == "event 3 (meld) was refused: It is bob's turn, not cy's."


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        ("[]", '{"setup": {...}, "events": [...]}'),
        ('{"setup": {"players": ["ann"]}, "events": []}', "2 to 6 players"),
        ('{"setup": {"players": ["ann", "bob"]}, "events": [{"type": "deal"}]}',
         "event 0 (deal) was refused: unknown event type 'deal'"),
        ('{"setup": {"players": ["ann", "bob"]}, "events": {}}', "must be a list"),
    ],
)
def test_replay_bad_input_exits_2(stdin: str, words: str, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["replay", "-"], stdin, monkeypatch, capsys)
    assert code == 2
    assert words in out["error"]


def test_tally_refuses_an_empty_card_code(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    data = {"players": {"ann": {"melded": ["Kcl", "Ksp", "Khe"], "hand": ["", "5he"]}}}
    code, out = run(["tally", "-"], json.dumps(data), monkeypatch, capsys)
    assert code == 2
    assert "ann's hand" in out["error"] and "empty card code '' at item 1 of 2" in out["error"]


@pytest.mark.parametrize(("options", "bob", "cy", "kings_owner"), [
    ({}, 17 + 30 + 30 + 50, 0, "bob"),
    ({"double_cross_takes": "toss-meld"}, 17 + 30 + 50, 30, "cy"),
])
def test_replay_double_cross_of_a_toss_and_a_meld_in_one_turn(
        options: dict[str, str], bob: int, cy: int, kings_owner: str,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    log = {"setup": {"players": ["ann", "bob", "cy", "dee"], "options": options}, "events": [
        {"type": "new-hand", "dealer": "dee"}, {"type": "next-turn"},
        {"type": "meld", "player": "bob", "cards": ["8di", "9di", "10di"], "top": "10di"},
        {"type": "next-turn"},
        {"type": "toss", "player": "cy", "meld": 1, "joker": "jk-red", "cards": ["10cl", "10sp"]},
        {"type": "meld", "player": "cy", "cards": ["Kcl", "Ksp", "Kdi"]},
        {"type": "next-turn"},
        {"type": "double-cross", "player": "bob", "jokers": ["boss"]}]}
    code, out = run(["replay", "-"], json.dumps(log), monkeypatch, capsys)
    assert code == 0, out
    scores = {p["name"]: p["score"] for p in out["players"]}
    assert (scores["bob"], scores["cy"]) == (bob, cy)
    assert next(m["owner"] for m in out["melds"] if m["cards"] == ["Kcl", "Ksp", "Kdi"]) \
        == kings_owner

