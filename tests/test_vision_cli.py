"""``scorekeeper deck calibrate`` and ``scorekeeper recognize`` on real JPEG files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main
from scorekeeper.vision.reference import ALTERNATE
from scorekeeper.vision.synth import background, calibration_photo, make_photo

CODES = ["Ahe", "7he", "10cl", "Qsp", "Kor", "3ca", "jk-gold", "null"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object],
                                                                      str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, json.loads(out), err


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One calibration photo per card of a deck drawn in the second style."""
    folder = tmp_path_factory.mktemp("deck")
    rng = np.random.default_rng(99)
    for code in CODES:
        (folder / f"{code}.jpg").write_bytes(
            calibration_photo(rng, code, ALTERNATE, size=(1600, 1200)))
    return folder


def test_calibrate_learns_every_card(photos: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deck.npz"
    code, report, err = run(["deck", "calibrate", str(photos), "--out", str(out)], capsys)
    assert code == 0, report
    assert sorted(report["learned"]) == sorted(CODES)  # type: ignore[arg-type]
    assert report["failed"] == {}
    assert "Kor" not in report["missing"]  # type: ignore[operator]
    assert "Kcl" in report["missing"]  # type: ignore[operator]
    assert f"[{len(CODES)}/{len(CODES)}]" in err
    assert out.is_file()
    # The learned deck reads a photo of these cards.
    shot = make_photo(np.random.default_rng(5), CODES, ALTERNATE, size=(2400, 1800),
                      kind="apart", max_tilt=25)
    photo = tmp_path / "meld.jpg"
    photo.write_bytes(shot.jpeg)
    code, result, _ = run(["recognize", str(photo), "--deck", str(out)], capsys)
    assert code == 0
    cards = result["cards"]
    assert isinstance(cards, list)
    assert sorted(c["code"] for c in cards) == sorted(t.code for t in shot.cards)
    for card in cards:
        assert 0 <= card["confidence"] <= 1
        assert len(card["corners"]) == 4
    assert [c["corners"][0][0] for c in cards] != []


def test_calibrate_exit_1_lists_the_photo_it_could_not_learn(
        photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "some"
    folder.mkdir()
    for code in CODES[:3]:
        (folder / f"{code}.jpg").write_bytes((photos / f"{code}.jpg").read_bytes())
    ok, buf = cv2.imencode(".jpg", background(np.random.default_rng(2), 1600, 1200))
    (folder / "Ksh.jpg").write_bytes(buf.tobytes())  # the table, no card
    out = tmp_path / "some.npz"
    code, report, err = run(["deck", "calibrate", str(folder), "--out", str(out)], capsys)
    assert code == 1
    assert list(report["failed"]) == ["Ksh.jpg"]  # type: ignore[call-overload]
    assert "no card" in report["failed"]["Ksh.jpg"]  # type: ignore[index]
    assert sorted(report["learned"]) == sorted(CODES[:3])  # type: ignore[arg-type]
    assert "Ksh.jpg: NOT learned" in err
    assert out.is_file()  # the profile holds the rest


def test_calibrate_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report, _ = run(["deck", "calibrate", str(tmp_path / "none"), "--out", "x.npz"],
                          capsys)
    assert code == 2 and "not a folder" in str(report["error"])
    code, report, _ = run(["deck", "calibrate", str(tmp_path), "--out", "x.npz"], capsys)
    assert code == 2 and "no photos" in str(report["error"])
    code, report, _ = run(["deck", "calibrate", str(tmp_path), "--out", "x.npz", "--deck",
                           "tarot"], capsys)
    assert code == 2


def test_calibrate_rejects_file_names_that_are_not_cards(
        photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "names"
    folder.mkdir()
    (folder / "Ahe.jpg").write_bytes((photos / "Ahe.jpg").read_bytes())
    (folder / "kitten.jpg").write_bytes((photos / "7he.jpg").read_bytes())
    (folder / "Qcr.jpg").write_bytes((photos / "Qsp.jpg").read_bytes())
    code, report, _ = run(["deck", "calibrate", str(folder), "--out",
                           str(tmp_path / "n.npz"), "--deck", "standard"], capsys)
    assert code == 1
    failed = report["failed"]
    assert isinstance(failed, dict)
    assert "not a card code" in failed["kitten.jpg"]
    assert "not in a standard deck" in failed["Qcr.jpg"]


def test_recognize_with_the_builtin_deck(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    shot = make_photo(np.random.default_rng(21), ["Kcl", "Kca", "Khe", "jk-blue"],
                      size=(2400, 1800), kind="fan", max_tilt=20)
    photo = tmp_path / "fan.jpg"
    photo.write_bytes(shot.jpeg)
    code, result, _ = run(["recognize", str(photo)], capsys)
    assert code == 0
    assert set(result) == {"cards", "warnings"}
    cards = result["cards"]
    assert isinstance(cards, list)
    assert sorted(c["code"] for c in cards) == sorted(t.code for t in shot.cards)
    assert [c["code"] for c in cards if c["top"]] == [t.code for t in shot.cards if t.top]


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"),
    (b"hello, I am a text file", "not an image"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (20000).to_bytes(4, "big")
     + (20000).to_bytes(4, "big") + b"\x08\x02\x00\x00\x00", "megapixels"),
])
def test_recognize_bad_files_exit_2(content: bytes, message: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "upload.jpg"
    path.write_bytes(content)
    code, result, err = run(["recognize", str(path)], capsys)
    assert code == 2
    assert message in str(result["error"])
    assert message in err


def test_recognize_bad_profile_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "p.jpg"
    ok, buf = cv2.imencode(".jpg", np.zeros((50, 50, 3), np.uint8))
    photo.write_bytes(buf.tobytes())
    bad = tmp_path / "deck.npz"
    bad.write_text("no")
    code, result, _ = run(["recognize", str(photo), "--deck", str(bad)], capsys)
    assert code == 2 and "not a deck profile" in str(result["error"])


def test_help_does_not_load_opencv() -> None:
    code = ("import sys, scorekeeper.cli as c; c.build_parser(); "
            "print('cv2' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
