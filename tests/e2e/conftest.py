"""Fixtures of the browser tests: the real server on a loopback port, and Debian's Chromium
driven by Playwright. Without Chromium the tests are skipped with the reason, unless
``SCOREKEEPER_REQUIRE_BROWSER=1`` (CI), where they fail instead."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.vision import builtin_profile
from web import create_app
from web.server import ServerThread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The app on the production server, on a free loopback port, over a fresh SQLite file."""
    database = tmp_path_factory.mktemp("e2e") / "e2e.sqlite"
    app = create_app({"DATABASE": str(database)})
    builtin_profile()  # made now, as ``scorekeeper serve`` does before it listens
    thread = ServerThread(app, threads=60)
    thread.start()
    yield thread
    thread.stop()
    app.extensions["scorekeeper.store"].close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium, one for the whole run."""
    if not os.path.exists(CHROMIUM):
        message = f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("SCOREKEEPER_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    # A page waits on the server reading or learning from photos, seconds of work that take
    # longer on a busy machine than Playwright's default of 5 s for an expectation.
    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
