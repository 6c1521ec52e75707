"""Each game declares its reviewer once (engines/review.py): the Review button, the reviews and the
benchmark derive from it, and a registered game without one is named by :func:`engines.review.check`."""

from __future__ import annotations

import types

import pytest

import engines.registry
from engines.registry import MissingPart, games
from engines.review import REVIEWABLE, check, reviewable


@pytest.mark.parametrize("game", games())
def test_every_registered_game_has_its_reviewer_and_its_curve(game):
    check(game)  # names the game and what it lacks
    assert reviewable(game)
    assert game in REVIEWABLE


def test_a_registered_game_without_a_reviewer_is_named():
    engines.registry.register("toy", types.ModuleType("toy"))
    try:
        assert not reviewable("toy")
        with pytest.raises(MissingPart, match=r"^toy: no reviewer declared \(engines/review.py, _REVIEWERS\)$"):
            check("toy")
    finally:
        engines.registry.unregister("toy")


def test_an_unregistered_game_is_not_checked():
    with pytest.raises(MissingPart, match="'nothing' is not a registered game"):
        check("nothing")
