"""``scorekeeper serve`` options and the LED board hook list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper.cli import build_parser
from web.board import DTR_CHOICES, GROUP, BoardHook, board_hooks, load_hook, start_boards


def test_serve_is_registered_with_its_options() -> None:
    args = build_parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "8123",
                                      "--database", "x.sqlite", "--board", "sim"])
    assert (args.host, args.port, args.database, args.board) == ("127.0.0.1", 8123,
                                                                 "x.sqlite", "sim")
    defaults = build_parser().parse_args(["serve"])
    assert defaults.host is None and defaults.port is None and defaults.board is None


class Recording:
    """A board hook that records what it was started with."""

    def __init__(self) -> None:
        self.calls: list[tuple[Flask, str, Any]] = []

    def start(self, app: Flask, spec: str, tables: Any) -> Recording:
        self.calls.append((app, spec, tables))
        return self

    def stop(self) -> None:
        return None


class Broken:
    def start(self, app: Flask, spec: str, tables: Any) -> Recording:
        raise OSError("no such port /dev/ttyUSB9")


def test_board_hooks_are_called_and_a_failing_one_is_reported(
        app: Flask, capsys: pytest.CaptureFixture[str]) -> None:
    recording = Recording()
    app.config["BOARD_HOOKS"] = [Broken(), recording]
    assert start_boards(app, "/dev/ttyUSB9") == [recording]
    assert recording.calls == [(app, "/dev/ttyUSB9", app.extensions["scorekeeper.store"])]
    assert "LED board link failed to start: no such port" in capsys.readouterr().err


def test_board_option_without_hooks_says_so(app: Flask,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    app.config["BOARD_HOOKS"] = []
    assert start_boards(app, "auto") == []
    assert "no LED board link" in capsys.readouterr().err


def test_the_led_board_is_registered_under_the_entry_point_group() -> None:
    import tomllib
    from importlib.metadata import EntryPoint

    import firmware_bridge.webapp

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    group = project["entry-points"][GROUP]
    hooks = [load_hook(EntryPoint(name, value, GROUP)) for name, value in group.items()]
    assert hooks == [firmware_bridge.webapp.BOARD] and isinstance(hooks[0], BoardHook)


def test_board_hooks_are_found_through_installed_entry_points(
        app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A board link installed as a distribution (a real dist-info on sys.path) is found."""
    (tmp_path / "sk_test_board.py").write_text(
        "class Hook:\n"
        "    def start(self, app, spec, tables):\n"
        "        self.started = (spec, tables)\n"
        "        return self\n"
        "    def stop(self):\n"
        "        pass\n"
        "HOOK = Hook()\n", encoding="utf-8")
    info = tmp_path / "sk_test_board-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sk-test-board\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ntest = sk_test_board:HOOK\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert app.config["BOARD_HOOKS"] is None  # no names given: the entry points decide
    import sk_test_board

    assert sk_test_board.HOOK in board_hooks(app)
    app.config["BOARD_HOOKS"] = ["sk_test_board:HOOK"]
    assert start_boards(app, "sim") == [sk_test_board.HOOK]
    assert sk_test_board.HOOK.started == ("sim", app.extensions["scorekeeper.store"])
    app.config["BOARD_HOOKS"] = ["sk_test_board:Hook.start"]
    assert start_boards(app, "sim") == []
    assert "sk_test_board:Hook.start is not a board hook" in capsys.readouterr().err


def test_board_hooks_are_named_in_the_environment_as_module_attr() -> None:
    from web.config import from_environment

    named = from_environment({"SCOREKEEPER_BOARD_HOOKS": " firmware_bridge.webapp:BOARD, x:Y "})
    assert named["BOARD_HOOKS"] == ["firmware_bridge.webapp:BOARD", "x:Y"]
    assert from_environment({"SCOREKEEPER_BOARD_HOOKS": ""})["BOARD_HOOKS"] == []  # none
    with pytest.raises(ValueError, match=r"SCOREKEEPER_BOARD_HOOKS=.*'firmware_bridge\.webapp'"
                       r" is not module:attr \(like firmware_bridge\.webapp:BOARD\)"):
        from_environment({"SCOREKEEPER_BOARD_HOOKS": "firmware_bridge.webapp"})


def test_board_dtr_comes_from_the_flag_or_the_environment(
        app: Flask, capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_bridge.ports import DTR_MODES
    from web.cli import app_config, board_arguments
    from web.config import from_environment

    assert DTR_CHOICES == DTR_MODES  # the serve flag takes the link's own --dtr settings
    args = build_parser().parse_args(["serve", "--board", "sim", "--board-dtr", "hold"])
    assert app_config(args)["BOARD_DTR"] == "hold"
    assert "BOARD_DTR" not in app_config(build_parser().parse_args(["serve"]))
    # with --workers, the one worker that drives the board gets every board flag
    many = build_parser().parse_args(["serve", "--workers", "2", "--board", "sim",
                                      "--board-dtr", "drop", "--board-table", "t1"])
    worker = app_config(build_parser().parse_args(["serve", *board_arguments(many)]))
    board = {key: value for key, value in app_config(many).items() if key.startswith("BOARD")}
    assert board == {"BOARD": "sim", "BOARD_DTR": "drop", "BOARD_TABLE": "t1"}
    assert {key: value for key, value in worker.items() if key.startswith("BOARD")} == board
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--board-dtr", "sometimes"])
    assert "--board-dtr: invalid choice: 'sometimes'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="SCOREKEEPER_BOARD_DTR='sometimes'.*auto, hold, drop"):
        from_environment({"SCOREKEEPER_BOARD_DTR": "sometimes"})
    # the setting reaches the link the board hook starts
    app.config.update(BOARD_HOOKS=["firmware_bridge.webapp:BOARD"], BOARD_DTR="hold")
    [follower] = start_boards(app, "sim")
    try:
        assert follower.link.dtr == "hold"  # type: ignore[attr-defined]
    finally:
        follower.stop()
        app.extensions["scorekeeper.board_sim"].stop()


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
