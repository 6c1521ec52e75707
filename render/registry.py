"""Each game's pictures, registered once: its public picture, its narrator, how its replay counts
frames (or no replay), and its other pictures the phone test must draw.

Derived from an entry, so a game need not say them again: its narrator tells the kit's events
(resign, forfeit, end) in the shared sentence unless it tells them itself, and its pictures take
its palette (``theme.to_picture`` asks :func:`game_of_module` which game the drawing module's is).

The games themselves are :mod:`engines.registry`'s; a game registered there with no entry here
fails :func:`check`, naming what it lacks. ``render/replay.py`` and the picture, narrator, replay
and phone tests derive their tables from :func:`pictures`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.registry import MissingPart, games
from engines.registry import check as check_engine
from render import octa, octagion, octagone, octego, octiles, theme
from render.narration import shared_sentence

# The game message's picture for everyone: (state, names, *, ending=None) -> Picture. With
# ``ending`` ("Stopped by Ada") the picture is final whatever the state says.
Draw = Callable[..., theme.Picture]
Narrate = Callable[[Any, Sequence[str]], str]  # (event, names) -> a sentence, or "" for none


@dataclass(frozen=True)
class Replay:
    """How a game's replay counts its frames (render/replay.py)."""

    unit: str = "move"  # what the replay counts: "move" or "round"
    # A frame's caption counter; it agrees with the picture's own (Octego's board counts the move
    # to play: "move 5" is the position after move 4).
    counter: str = "move {n} of {total}"
    frame: Draw | None = None  # the picture after an action that makes a frame; None: the public picture
    frame_on: str | None = None  # the event kind that makes a frame; None: every move


@dataclass(frozen=True)
class WithSharedSentence:
    """A game's narrator with the shared sentence as its fallback: an event it leaves untold ("")
    that the kit records (resign, forfeit, end) is told as for every game."""

    own: Narrate

    def __call__(self, event: Any, names: Sequence[str]) -> str:
        return self.own(event, names) or shared_sentence(event, names)


@dataclass(frozen=True)
class GamePictures:
    public_picture: Draw
    narrate: Narrate  # the game's own events in words; the kit's fall back to the shared sentence
    replay: Replay | None  # None: finished games of it get no Replay button
    # Its other pictures the bot sends (a hand, a deck): names in its render module, each of
    # which tests/render/test_phone_text.py must draw.
    other_pictures: tuple[str, ...] = ()
    supersample: int = 1  # drawn at this scale, then reduced (the phone test divides by it)
    # The Activity's board for a seated player: this other picture (state, names, seat) under the
    # public one, when the public picture does not already show what the player's private view
    # does (render/board.py).
    seated_below: str | None = None

    def __post_init__(self) -> None:
        if callable(self.narrate) and not isinstance(self.narrate, WithSharedSentence):
            object.__setattr__(self, "narrate", WithSharedSentence(self.narrate))


def _octagion_public_picture(
    state: Any, names: Sequence[str], viewer: int | None = None, *, ending: str | None = None
) -> theme.Picture:
    draw = octagion.render_scoresheet if state.over else octagion.render_round
    return draw(state, names, ending=ending)


OCTEGO_MOVES = Replay(counter="after move {n} of {total}")  # its board counts the move to play
OCTAGION_ROUNDS = Replay("round", "round {n} of {total}", octagion.render_round_result, "round_end")

# One entry per game registered in engines/registry.py.
_PICTURES: dict[str, GamePictures] = {
    "octagion": GamePictures(
        _octagion_public_picture,
        octagion.narrate,
        OCTAGION_ROUNDS,
        other_pictures=("render_deck", "render_variant", "render_round_result", "render_scoresheet"),
        seated_below="render_deck",
    ),
    "octego": GamePictures(octego.render_board, octego.narrate, OCTEGO_MOVES, supersample=2),
    "octa": GamePictures(
        octa.render_table, octa.narrate, Replay(), other_pictures=("render_hand",), seated_below="render_hand"
    ),
    "octagone": GamePictures(octagone.render_board, octagone.narrate, Replay(), other_pictures=("render_hand",)),
    "octiles": GamePictures(
        octiles.render_board, octiles.narrate, Replay(), other_pictures=("render_orientations",), supersample=2
    ),
}


def pictures(game: str) -> GamePictures:
    """The game's pictures; :class:`MissingPart` for a game registered without them."""
    if game not in games():
        raise MissingPart(f"{game!r} is not a registered game (engines/registry.py)")
    try:
        return _PICTURES[game]
    except KeyError:
        raise MissingPart(f"{game}: no pictures registered (render/registry.py)") from None


def game_of_module(module: str) -> str | None:
    """The registered game whose pictures ``module`` draws (the module of its narrator or public
    picture: ``render.<game>``), or None (a tournament's pictures, a picture of no game)."""
    for game, entry in _PICTURES.items():
        narrate = entry.narrate.own if isinstance(entry.narrate, WithSharedSentence) else entry.narrate
        if module in (getattr(narrate, "__module__", None), getattr(entry.public_picture, "__module__", None)):
            return game
    return None


def register(game: str, entry: GamePictures) -> None:
    if game in _PICTURES:
        raise ValueError(f"{game!r} already has its pictures")
    _PICTURES[game] = entry


def unregister(game: str) -> None:
    del _PICTURES[game]


def check(game: str) -> None:
    """Raise :class:`MissingPart` naming the first part the game lacks, engine or pictures."""
    check_engine(game)
    entry = pictures(game)
    for part in ("public_picture", "narrate"):
        if not callable(getattr(entry, part)):
            raise MissingPart(f"{game}: its {part} is not a function (render/registry.py)")
    if entry.replay is not None and entry.replay.unit not in ("move", "round"):
        raise MissingPart(f"{game}: its replay counts {entry.replay.unit!r}, not moves or rounds")
