"""``python -m bot`` runs on uvloop's event loop where uvloop is installed (a dependency on Linux
and macOS, issue 41: the loop itself costs less per move), and on asyncio's own loop where it is
not. tests/bot/test_start.py starts the real ``python -m bot`` on it against a fake Discord."""

from __future__ import annotations

import asyncio
import sys

import pytest

from bot.__main__ import event_loop_factory


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not a dependency on Windows")
def test_the_bot_runs_on_uvloop_where_it_is_installed():
    import uvloop

    factory = event_loop_factory()
    assert factory is uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        assert isinstance(runner.get_loop(), uvloop.Loop)
        assert runner.run(asyncio.sleep(0, result="ran")) == "ran"


def test_the_bot_falls_back_to_asyncios_loop_without_uvloop(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvloop", None)  # an import of it now fails, as where it is absent
    assert event_loop_factory() is None
