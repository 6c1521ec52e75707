"""One registry of games: a game registered once per layer (engines/registry.py, render/registry.py,
bot/games/__init__.py) is in every derived table, and a registered game that lacks a part fails
:func:`bot.games.check`, which names the part.

A toy sixth game, defined here and registered at runtime, shows it: the bot's adapters, the
replay kinds, the tests' game cases and the benchmarks pick it up, and it replays."""

from __future__ import annotations

import contextlib
import io
import pkgutil
import types
from dataclasses import dataclass, replace
from typing import ClassVar

import pytest
from PIL import Image

import bot.games
import engines
import engines.registry
import render.registry
from bench import load
from bench.__main__ import games_without_benchmark
from bot.adapter import GameAdapter
from bot.core.workers import drawing
from engines.base import Game, GameState, Outcome
from engines.registry import KITS, MissingPart, games
from render import replay
from render.registry import GamePictures, Replay, pictures
from render.theme import canvas, centred_text, to_picture
from tests.engines.test_contract import play
from tests.games import GAMES, IDS, cases
from tests.render.test_pictures import mid_game

NAMES = ["Ada", "Bo", "Cy", "Di"]
GOAL = 3  # the toy game: each player in turn takes a step; whoever takes the third wins


@dataclass(kw_only=True)
class ToyState(GameState):
    steps: int = 0
    turn: int = 0


class ToyEngine(Game[ToyState]):
    name, title, min_players, max_players, state_class = "toy", "Toy", 2, 2, ToyState
    actions: ClassVar = {"step": {}}

    def new_game(self, players, options, seed):
        return ToyState(seed=seed, players=players)

    def play_step(self, state, seat, action):
        state.steps += 1
        state.turn = 1 - seat
        state.record("step", seat)
        if state.steps == GOAL:
            self.finish(state, Outcome((1, 2) if seat == 0 else (2, 1), (float(seat == 0), float(seat == 1)), "third"))

    def legal_actions(self, state, seat):
        return [{"type": "step"}] if not state.over and seat == state.turn else []

    def to_act(self, state):
        return [] if state.over else [state.turn]


def choose_toy(state, seat, level, seed):
    return {"type": "step"}


def toy_package(**parts) -> types.ModuleType:
    """The toy's engine package, as ``engines/<game>/__init__.py`` would be."""
    package = types.ModuleType("toy")
    package.ENGINE, package.choose_action = ToyEngine(), choose_toy
    package.__all__ = ["ENGINE", "choose_action"]
    vars(package).update(parts)
    return package


def render_toy(state, names, *, ending=None):
    image, draw = canvas(200, 100)
    centred_text(draw, (100, 50), f"{state.steps} of {GOAL}", 30)
    return to_picture(image, ending or f"{state.steps} steps taken.")


def narrate_toy(event, names):
    return f"{names[event.seat]} stepped." if event.kind == "step" else ""


TOY_PICTURES = GamePictures(render_toy, narrate_toy, Replay())


def adapter_for(package: types.ModuleType, game: str = "toy") -> type[GameAdapter]:
    class ToyAdapter(GameAdapter):
        engine = getattr(package, "ENGINE", None)
        name, title, summary = game, "Toy", "Take the third step."
        computer_player = staticmethod(choose_toy)
        narrate = staticmethod(narrate_toy)

        def public_picture(self, session):
            return drawing(render_toy, session.state, session.names)

    return ToyAdapter


@contextlib.contextmanager
def registered(package, entry, adapter):
    """The toy's parts registered in each layer (a part given as None is left out), for one test only."""
    parts = [(engines.registry, package), (render.registry, entry), (bot.games, adapter)]
    done = []
    try:
        for layer, part in parts:
            if part is not None:
                layer.register("toy", part)
                done.append(layer)
        yield package
    finally:
        for layer in done:
            layer.unregister("toy")


@pytest.fixture
def toy():
    with registered(*_parts()) as package:
        yield package


# ------------------------------------------------------------ the five games


@pytest.mark.parametrize("game", games())
def test_every_registered_game_has_every_part(game):
    bot.games.check(game)


def test_every_engine_package_is_registered():
    packages = {module.name for module in pkgutil.iter_modules(engines.__path__) if module.ispkg}
    assert packages - set(KITS) == set(games())


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_the_bot_draws_the_registered_public_picture(game, players, options):
    """The adapter's picture for the game message is the one render/registry.py declares (the
    one replays end on), playing and final."""
    state = mid_game(game, players, options)
    session = types.SimpleNamespace(state=state, names=NAMES[:players])
    adapter = bot.games.adapter(game)
    drawn = adapter.public_picture(types.SimpleNamespace(name=adapter.name), session)  # no context needed
    final = drawn.with_keywords(ending="Stopped by Ada")
    public = pictures(game).public_picture
    assert drawn.draw(*drawn.args).png == public(state, NAMES[:players]).png
    assert (
        final.draw(*final.args, **dict(final.keywords)).png
        == public(state, NAMES[:players], ending="Stopped by Ada").png
    )


# ------------------------------------------------------------ a sixth game, registered at runtime


def test_a_game_registered_at_runtime_is_in_every_derived_table(toy):
    assert games()[-1] == "toy", "a new game goes last"
    assert bot.games.all_games()[-1].engine is toy.ENGINE
    assert replay.KINDS["toy"].final is render_toy
    assert "toy" in list(replay.KINDS)
    assert ("toy", 2, {}) in cases()
    assert len(list(play("toy", 2, {}, seed=1))) == GOAL, "the contract test's games play it"
    assert ("toy", {}) in load.load_games()
    assert games_without_benchmark() == ["toy"]
    bot.games.check("toy")


def test_the_derived_tables_hold_only_registered_games():
    assert "toy" not in replay.KINDS
    assert "toy" not in [game for game, _, _ in cases()]
    assert [adapter.name for adapter in bot.games.all_games()] == list(games())
    assert games_without_benchmark() == []


def test_a_game_registered_at_runtime_replays(toy):
    actions = [(0, {"type": "step"}), (1, {"type": "step"}), (0, {"type": "step"})]
    picture = replay.replay_picture("toy", 2, {}, 1, actions, NAMES[:2])
    frames = Image.open(io.BytesIO(picture.png)).n_frames
    assert frames == len(actions) + 1, "a frame per step, then the final picture"
    assert "Replay of Toy (Ada, Bo)" in picture.description
    assert "3 moves" in picture.description


# ------------------------------------------------------------ a part missing fails loudly


class OtherEngine(ToyEngine):
    name = "other"


def _parts(package=None, entry=TOY_PICTURES, adapter=...):
    """(package, pictures, adapter) of the toy, each as given; the adapter plays the package's engine."""
    package = package or toy_package()
    return package, entry, adapter_for(package) if adapter is ... else adapter


# what is wrong -> (the toy's parts, with that wrong, and the words the check says it in)
MISSING = {
    "no ENGINE exported": (lambda: _parts(types.ModuleType("toy")), "exports no ENGINE"),
    "ENGINE not a kit engine": (lambda: _parts(toy_package(ENGINE=object())), "not an engines.base.Game"),
    "ENGINE named otherwise": (lambda: _parts(toy_package(ENGINE=OtherEngine())), "named 'other'"),
    "no pictures": (lambda: _parts(entry=None), "no pictures registered"),
    "no narrator": (lambda: _parts(entry=replace(TOY_PICTURES, narrate=None)), "narrate is not a function"),
    "a replay counting turns": (lambda: _parts(entry=replace(TOY_PICTURES, replay=Replay("turn"))), "counts 'turn'"),
    "no adapter": (lambda: _parts(adapter=None), "no adapter registered"),
    "an adapter named otherwise": (
        lambda: _parts(adapter=adapter_for(toy_package(), game="other")),
        "is named 'other'",
    ),
    "an adapter of another engine": (lambda: _parts(adapter=adapter_for(toy_package())), "plays another engine"),
}


@pytest.mark.parametrize("wrong", MISSING)
def test_a_game_lacking_a_part_fails_the_check_naming_it(wrong):
    parts, words = MISSING[wrong]
    with registered(*parts()), pytest.raises(MissingPart, match=words) as raised:
        bot.games.check("toy")
    assert "toy" in str(raised.value)
