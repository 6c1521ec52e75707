"""One narrator per game: every event of a played game reads as a sentence naming the right
players, whatever their names are (a player named "Seat 2" once turned player 1 into player 2).

Every registered game is checked (engines/registry.py), with the narrator and engine its registry
entries name (render/registry.py), so a newly registered game is checked with no edit here."""

from __future__ import annotations

import random

import pytest

from engines.base import Event
from engines.registry import engine as registered_engine
from engines.registry import games
from render.registry import pictures
from tests.games import GAMES, IDS

# Names that look like the placeholders and markup an engine or narrator might use.
NAMES = ["Seat 2", "Seat 1", "{0}", "**Di**"]
TOKENS = ["⟨zero⟩", "⟨one⟩", "⟨two⟩", "⟨three⟩"]  # names no sentence can contain by chance


def played_events(game: str, players: int, options: dict, seed: int) -> list[Event]:
    engine = registered_engine(game)
    state = engine.new_game(players, options, seed)
    events = list(state.events)
    rng = random.Random(seed)
    for _ in range(60):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(engine.to_act(state))
        actions = [action for action in engine.legal_actions(state, seat) if action["type"] != "resign"]
        state = engine.apply(state, seat, rng.choice(actions))
        events += state.events
    seat = engine.to_act(state)[0] if engine.outcome(state) is None else None
    if seat is not None:
        events += engine.apply(state, seat, {"type": "resign"}).events
    return events


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_is_told_with_the_players_own_names(game, players, options, seed):
    narrate = pictures(game).narrate
    names = NAMES[:players]
    told = 0
    for event in played_events(game, players, options, seed):
        text = narrate(event, names)
        assert isinstance(text, str)
        if not text:
            continue
        told += 1
        assert text == text.strip()
        assert "\n" not in text
        if event.seat is not None and event.kind != "end":
            assert names[event.seat] in text, f"{event} is told without its player: {text!r}"
        # Names go in as given and nothing else is done to them: told with stand-in names, then the
        # stand-ins swapped for the real ones, it is the same sentence (no "Seat N" replacement).
        with_tokens = narrate(event, TOKENS[:players])
        for token, name in zip(TOKENS, names, strict=False):
            with_tokens = with_tokens.replace(token, name)
        assert with_tokens == text
    assert told > 0


@pytest.mark.parametrize("game", games())
def test_a_resignation_names_the_player_who_resigned(game):
    narrate = pictures(game).narrate
    names = ["Seat 2", "Bo", "Cy"]
    text = narrate(Event(3, 0, "resign", {}), names)
    assert "Seat 2" in text
    assert "Bo" not in text
