"""One registry of games: a game registered once per layer (engines/registry.py, render/registry.py,
bot/games/__init__.py) is in every derived table, and a registered game that lacks a part fails
:func:`bot.games.check`, which names the part.

A toy sixth game, defined here and registered at runtime, shows it: the bot's adapters, the
replay kinds, the tests' game cases and the benchmarks pick it up, it replays, and every test the
five games pass as registered games it passes too, with nothing but its own parts (an engine, a
picture that names no palette, a narrator of its own events, an adapter that repeats neither)."""

from __future__ import annotations

import contextlib
import inspect
import io
import itertools
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
from bench.palettes import full_colour
from bot.core.workers import drawing
from bot.ui.adapter import GameAdapter
from engines.base import Event, Game, GameState, Outcome
from engines.registry import KITS, MissingPart, games
from render import replay
from render.registry import GamePictures, Replay, pictures
from render.theme import canvas, centred_text, to_picture
from tests.engines import test_base, test_contract, test_records
from tests.engines.test_contract import play
from tests.games import GAMES, IDS, cases
from tests.render import test_narrators, test_pictures
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
TOY_RULES = "Take a step in turn: whoever takes the third wins."  # /rules (a real game's is bot/games/rules/<game>.md)


def adapter_for(package: types.ModuleType, game: str = "toy", rules: str | None = TOY_RULES) -> type[GameAdapter]:
    class ToyAdapter(GameAdapter):
        engine = getattr(package, "ENGINE", None)
        name, title, summary = game, "Toy", "Take the third step."
        computer_player = staticmethod(choose_toy)

        def public_picture(self, session):
            return drawing(render_toy, session.state, session.names)

    if rules is not None:
        ToyAdapter.rules = rules  # its /rules text on the class, instead of a file beside the adapters
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


# The modules whose tests run for every registered game, as each game's own cases.
CROSS_GAME_MODULES = (test_contract, test_records, test_base, test_pictures, test_narrators)
PER_GAME = (("game",), ("game", "players", "options"))


def _argnames(mark: pytest.Mark) -> tuple[str, ...]:
    names = mark.args[0]
    return tuple(name.strip() for name in names.split(",")) if isinstance(names, str) else tuple(names)


def _as_keywords(names: tuple[str, ...], value: object) -> dict[str, object]:
    values = getattr(value, "values", value)  # a pytest.param, or the value itself
    return dict(zip(names, values if len(names) > 1 else (values,), strict=True))


def cross_game_tests() -> list[tuple[str, object, list[dict[str, object]]]]:
    """Every test of those modules that is parametrized over all five games, as (name, function,
    its other parameters' combinations): the tests a sixth game must pass with no edit to them."""
    found = []
    for module in CROSS_GAME_MODULES:
        for name, function in vars(module).items():
            marks = [mark for mark in getattr(function, "pytestmark", []) if mark.name == "parametrize"]
            per_game = [mark for mark in marks if _argnames(mark) in PER_GAME]
            if not name.startswith("test_") or len(per_game) != 1:
                continue
            covered = {_as_keywords(_argnames(per_game[0]), value)["game"] for value in per_game[0].args[1]}
            if not set(games()) <= covered:
                continue  # a game's own examples, not a test of every game
            others = [[_as_keywords(_argnames(mark), value) for value in mark.args[1]] for mark in marks]
            others.remove(others[marks.index(per_game[0])])
            combined = [
                dict(pair for part in combination for pair in part.items())
                for combination in itertools.product(*others)
            ]
            found.append((f"{module.__name__}.{name}", function, combined))
    return found


def test_the_cross_game_tests_are_found():
    names = {name.rsplit(".", 1)[1] for name, _, _ in cross_game_tests()}
    assert {
        "test_resigning_ends_the_game_once_and_refuses_everything_after",
        "test_a_resignation_mid_game_round_trips",
        "test_the_public_picture_is_a_small_palette_png",
        "test_every_event_is_told_with_the_players_own_names",
        "test_a_resignation_names_the_player_who_resigned",
        "test_every_engine_refuses_one_player_fewer_than_its_minimum",
    } <= names
    assert len(names) >= 12


def test_a_sixth_game_of_its_own_parts_passes_every_cross_game_test(toy):
    """The toy (three moves, shorter than the 9 or 7 random moves some tests play) registered with
    its own parts only: every test the five games pass as registered games, run for it."""
    bot.games.check("toy")
    failed = []
    for name, function, combinations in cross_game_tests():
        parameters = set(inspect.signature(function).parameters)
        for others in combinations:
            case = {"game": "toy", "players": 2, "options": {}, **others}
            try:
                function(**{key: value for key, value in case.items() if key in parameters})
            except Exception as error:  # every failure is listed, naming its test
                failed.append(f"{name}{others or ''}: {error!r}"[:300])
    assert failed == []


def test_a_new_games_pictures_take_its_palette_without_naming_it(toy):
    """``render_toy`` calls ``to_picture`` with no ``game=``: the palette command still notes its
    pictures as the toy's (it skipped them before), and the bot's pictures map onto its palette."""
    with full_colour() as drawn:
        render_toy(ToyState(seed=1, players=2), NAMES[:2])
        test_pictures.pictures("octego").public_picture(mid_game("octego", 2, {}), NAMES[:2])
    assert [game for game, _ in drawn] == ["toy", "octego"]


def test_a_new_games_narrator_falls_back_to_the_shared_sentence_and_the_adapter_repeats_none(toy):
    adapter = bot.games.adapter("toy")
    assert "narrate" not in vars(adapter), "the adapter does not repeat its narrator"
    assert adapter.narrate(Event(1, 0, "step", {}), NAMES[:2]) == "Ada stepped.", "its own event, its own words"
    assert adapter.narrate(Event(2, 1, "resign", {}), NAMES[:2]) == "Bo resigned.", "the kit's, the shared sentence"
    assert adapter.narrate(Event(2, 0, "forfeit", {}), NAMES[:2]) == "Ada ran out of time."
    assert pictures("toy").narrate(Event(2, 1, "resign", {}), NAMES[:2]) == "Bo resigned.", "replays tell it too"


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


def _ruleless(package):
    return _parts(package, adapter=adapter_for(package, rules=None))


# what is wrong -> (the toy's parts, with that wrong, and the words the check says it in)
MISSING = {
    "no ENGINE exported": (lambda: _parts(types.ModuleType("toy")), "exports no ENGINE"),
    "ENGINE not a kit engine": (lambda: _parts(toy_package(ENGINE=object())), "not an engines.base.Game"),
    "ENGINE named otherwise": (lambda: _parts(toy_package(ENGINE=OtherEngine())), "named 'other'"),
    "no pictures": (lambda: _parts(entry=None), "no pictures registered"),
    "no narrator": (lambda: _parts(entry=replace(TOY_PICTURES, narrate=None)), "narrate is not a function"),
    "a replay counting turns": (lambda: _parts(entry=replace(TOY_PICTURES, replay=Replay("turn"))), "counts 'turn'"),
    "no adapter": (lambda: _parts(adapter=None), "no adapter registered"),
    "no rules text": (lambda: _ruleless(toy_package()), "no rules text"),
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
