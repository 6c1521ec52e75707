"""The contract every engine keeps, checked the same way for all five games.

Each game is played with random legal actions from several seeds; every step is checked
against the kit's promises: the given state never changes, the ply advances by one, the
action's events are recorded with its ply, the state survives JSON, refusals leave no
trace, and a game replays exactly from its seed and actions.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines.base import Event, Game, IllegalAction
from engines.registry import engine as registered_engine
from engines.registry import package
from tests.games import GAMES, IDS

FIXTURES = Path(__file__).parent / "fixtures"
STEPS = 40


def engine_of(game: str) -> Game:
    return registered_engine(game)


def random_action(engine: Game, state: Any, rng: random.Random) -> tuple[int, dict[str, Any]]:
    seat = rng.choice(engine.to_act(state))
    choices = [action for action in engine.legal_actions(state, seat) if action["type"] != "resign"]
    return seat, rng.choice(choices)


def play(game: str, players: int, options: dict, seed: int, steps: int = STEPS):
    """Yield (before, seat, action, after) for up to ``steps`` random legal actions."""
    engine = engine_of(game)
    state = engine.new_game(players, options, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if engine.outcome(state) is not None:
            return
        seat, action = random_action(engine, state, rng)
        after = engine.apply(state, seat, action)
        yield state, seat, action, after
        state = after


def running(game: str, players: int, options: dict, seed: int, steps: int) -> list[tuple[int, dict[str, Any]]]:
    """(seat, action) for up to ``steps`` random legal actions, stopping before any that would end
    the game: a game may well be shorter than ``steps`` (a toy of three moves), and is still
    running after these."""
    log = []
    for _, seat, action, after in play(game, players, options, seed, steps):
        if engine_of(game).outcome(after) is not None:
            break
        log.append((seat, action))
    return log


def round_trip(engine: Game, state: Any) -> Any:
    return engine.load(json.loads(json.dumps(engine.dump(state))))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_the_package_exports_a_kit_engine(game, players, options):
    found = package(game)
    assert "ENGINE" in found.__all__
    assert isinstance(found.ENGINE, Game)
    assert found.ENGINE.name == game
    assert all(hasattr(found, name) for name in found.__all__)


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_action_advances_the_ply_records_events_and_leaves_the_old_state(game, players, options, seed):
    engine = engine_of(game)
    steps = 0
    for before, _seat, action, after in play(game, players, options, seed):
        kept = copy.deepcopy(engine.dump(before))
        assert after.ply == before.ply + 1
        assert after.events, f"{action} recorded no event"
        assert all(isinstance(event, Event) and event.ply == after.ply for event in after.events)
        assert all(event.seat is None or 0 <= event.seat < players for event in after.events)
        assert engine.dump(before) == kept, f"{action} changed the state it was given"
        assert round_trip(engine, after) == after
        steps += 1
    assert steps > 0


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [4, 5])
def test_a_game_replays_exactly_from_its_seed_and_actions(game, players, options, seed):
    engine = engine_of(game)
    log, final = [], None
    for _, seat, action, after in play(game, players, options, seed):
        log.append((seat, json.loads(json.dumps(action))))
        final = after
    assert final is not None
    assert engine.dump(engine.replay(players, options, seed, log)) == engine.dump(final)


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
@pytest.mark.parametrize("moves", [0, 7])
def test_resigning_ends_the_game_once_and_refuses_everything_after(game, players, options, moves):
    engine = engine_of(game)
    log = running(game, players, options, 6, moves)
    state = engine.replay(players, options, 6, log)
    assert engine.outcome(state) is None, f"{game}: over after {len(log)} of its actions that did not end it"
    # Every seat resigns in turn until the game ends (Octagion's teams carry on while a member remains).
    for seat in range(players):
        before = state
        state = engine.apply(state, seat, {"type": "resign"})
        assert any(event.kind == "resign" and event.seat == seat for event in state.events), f"{game}: no resign event"
        assert state.ply == before.ply + 1, f"{game}: a resignation is one ply"
        if engine.outcome(state) is not None:
            break
    outcome = engine.outcome(state)
    assert outcome is not None, f"{game}: every seat resigned and the game goes on"
    assert seat not in outcome.winners, f"{game}: the last seat to resign won"
    assert engine.to_act(state) == [], f"{game}: a finished game has seats to act"
    assert any(event.kind == "end" for event in state.events), f"{game}: the game ended with no end event"
    for other in range(players):
        for action in [{"type": "resign"}, *engine.legal_actions(before, other)]:
            with pytest.raises(IllegalAction):
                engine.apply(state, other, action)
    assert round_trip(engine, state) == state


MALFORMED: list[Any] = [
    None,
    "resign",
    ["resign"],
    {},
    {"type": ["resign"]},
    {"type": "fly_away"},
]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_malformed_actions_are_refused_like_illegal_ones(game, players, options):
    engine = engine_of(game)
    for state, seat, action, _ in play(game, players, options, 8, 12):
        kept = engine.dump(state)
        broken = [*MALFORMED, {**action, "unexpected": 1}]
        required = {name for name in engine.actions.get(action["type"], {}) if not name.endswith("?")}
        for name, value in action.items():
            if name == "type":
                continue
            if name in required:  # a missing field
                broken.append({key: item for key, item in action.items() if key != name})
            broken.append({**action, name: [value]})  # a list where one value belongs
            broken.append({**action, name: {"nested": value}})
        for bad in broken:
            with pytest.raises(IllegalAction):
                engine.apply(state, seat, bad)
        with pytest.raises(IllegalAction):
            engine.apply(state, players + 3, action)
        assert engine.dump(state) == kept


def replay_options(engine, state, options: dict[str, Any]) -> dict[str, Any]:
    """The options that replay a stored game as it was played: a game whose cards changed since
    (Octagion's Word Cards) names what it was dealt from."""
    if hasattr(engine, "replay_options"):
        return engine.replay_options(state, options)
    return dict(options)


def _without_events(data: dict[str, Any], *history: str) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "events" and key not in history}


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*_schema1.json")), ids=lambda path: path.stem)
def test_games_stored_by_the_previous_schema_still_load(fixture):
    """The same game as a replay of its actions, except the history an old state never kept
    (``Game.history``: it starts afresh, empty, when the old state is loaded)."""
    saved = json.loads(fixture.read_text())
    engine = engine_of(fixture.stem.split("_")[0])
    actions = [(seat, action) for seat, action in saved["actions"]]
    loaded = engine.load(saved["state"])
    options = replay_options(engine, loaded, saved["options"])
    replayed = engine.replay(saved["players"], options, saved["seed"], actions)
    fresh = engine.new_game(saved["players"], options, saved["seed"])
    assert {name: getattr(loaded, name) for name in engine.history} == {
        name: getattr(fresh, name) for name in engine.history
    }
    history = engine.history
    assert _without_events(engine.dump(loaded), *history) == _without_events(engine.dump(replayed), *history)
    assert engine.to_act(loaded) == engine.to_act(replayed)
    assert engine.outcome(loaded) == engine.outcome(replayed)
    if engine.outcome(loaded) is None:  # a stored game plays on
        seat = engine.to_act(loaded)[0]
        action = engine.legal_actions(loaded, seat)[0]
        after_loaded, after_replayed = engine.apply(loaded, seat, action), engine.apply(replayed, seat, action)
        assert _without_events(engine.dump(after_loaded), *history) == _without_events(
            engine.dump(after_replayed), *history
        )


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_a_state_from_a_newer_schema_is_refused(game, players, options):
    engine = engine_of(game)
    data = engine.dump(engine.new_game(players, options, 1))
    data["schema"] = engine.schema + 1
    with pytest.raises(ValueError, match="schema"):
        engine.load(data)
