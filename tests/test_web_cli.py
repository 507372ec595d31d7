"""``scorekeeper serve`` options and the LED board hook list."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorekeeper.cli import build_parser
from web.cli import start_board_hooks


def test_serve_is_registered_with_its_options() -> None:
    args = build_parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "8123",
                                      "--database", "x.sqlite", "--board", "sim"])
    assert (args.host, args.port, args.database, args.board) == ("127.0.0.1", 8123,
                                                                 "x.sqlite", "sim")
    defaults = build_parser().parse_args(["serve"])
    assert defaults.host is None and defaults.port is None and defaults.board is None


def test_board_hooks_are_called_and_a_failing_one_is_reported(
        app: Flask, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware_bridge

    monkeypatch.setattr(firmware_bridge, "init_app", lambda app: None, raising=False)
    calls: list[tuple[Any, str]] = []

    def broken(app: Flask, spec: str) -> None:
        raise OSError("no such port /dev/ttyUSB9")

    app.extensions["scorekeeper.board_hooks"].extend([broken, lambda a, s: calls.append((a, s))])
    start_board_hooks(app, "/dev/ttyUSB9")
    assert calls == [(app, "/dev/ttyUSB9")]
    assert "LED board link failed to start: no such port" in capsys.readouterr().err


def test_board_option_without_hooks_says_so(app: Flask, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware_bridge

    monkeypatch.setattr(firmware_bridge, "init_app", lambda app: None, raising=False)
    start_board_hooks(app, "auto")
    assert "no LED board link" in capsys.readouterr().err


def test_board_settings_come_from_flags_and_environment() -> None:
    from web.config import from_environment

    args = build_parser().parse_args(["serve", "--board", "sim", "--board-mode", "wled",
                                      "--board-table", "t1", "--board-layout", "my.json"])
    assert (args.board_mode, args.board_table, args.board_layout) == ("wled", "t1", "my.json")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--board-mode", "neopixel"])
    assert from_environment({"SCOREKEEPER_BOARD_MODE": "wled",
                             "SCOREKEEPER_BOARD_BRIGHTNESS": "40"}) == {
        "BOARD_MODE": "wled", "BOARD_BRIGHTNESS": 40}
    with pytest.raises(ValueError, match="SCOREKEEPER_BOARD_BRIGHTNESS='bright'"):
        from_environment({"SCOREKEEPER_BOARD_BRIGHTNESS": "bright"})


def test_every_scorekeeper_variable_is_read_by_the_one_config_map() -> None:
    from pathlib import Path

    from web.config import from_environment

    root = Path(__file__).resolve().parents[1]
    assert from_environment({"SCOREKEEPER_PHOTO_MAX_MB": "1.5", "SCOREKEEPER_BOARD_DTR": "hold",
                             "SCOREKEEPER_PHOTO_WORKERS": "3"}) == {
        "BOARD_DTR": "hold", "PHOTO_MAX_BYTES": 1536 * 1024, "PHOTO_WORKERS": 3}
    for module in ("web/photos.py", "firmware_bridge/webapp.py"):
        text = (root / module).read_text(encoding="utf-8")
        assert "os.environ" not in text and '"SCOREKEEPER_' not in text, module
