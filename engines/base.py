"""The shape every game engine shares, so the bot can host any game the same way.

A game package ``engines/<game>/`` exposes ``ENGINE``, an object with the methods of
:class:`Engine`. Engines are pure: no discord, no Pillow, no asyncio, no I/O, and
randomness only through an RNG whose seed lives in the state.

Players are *seats*: ``0 .. players-1`` in the order given to ``new_game``. The bot maps
Discord users to seats; an engine never sees a user id.

Actions are plain JSON-able dicts with a ``"type"`` key (``{"type": "move", "path":
"c1-d2"}``). Every engine accepts ``{"type": "resign"}`` from any seat while the game is
running.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

State = TypeVar("State")


class IllegalAction(Exception):
    """An action the rules forbid. ``str(error)`` is a sentence a player can read."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranks`` has one entry per seat, 1 = best; seats that tie share a rank (a draw is
    every seat at rank 1). ``scores`` are the numbers shown to players, one per seat.
    ``teams`` gives each seat's team where seats play together (Octagone's pairs, Octagion's
    teams), so ratings treat partners as one side; None means every seat plays for itself.
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    teams: tuple[int, ...] | None = None

    def sides(self) -> list[tuple[int, ...]]:
        """The seats of each side, in order of first appearance."""
        teams = self.teams or tuple(range(len(self.ranks)))
        return [tuple(s for s, t in enumerate(teams) if t == team) for team in dict.fromkeys(teams)]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) == len(self.ranks) > 1


class Engine(Protocol[State]):
    """What the bot needs from a game. Implementations never mutate a state they are given."""

    name: str  # command name, e.g. "octego"
    title: str  # display name, e.g. "Octego"
    min_players: int
    max_players: int
    schema_version: int

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> State: ...

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> State:
        """Return the state after ``seat`` does ``action``; raise IllegalAction otherwise."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every action ``seat`` may take now (for menus, autocomplete and computer players).

        Games whose action space cannot be listed (Octagion's free-form variant) return the
        discrete ones only.
        """
        ...

    def to_act(self, state: State) -> list[int]:
        """The seats that may act now (several in a simultaneous game, none when over)."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs."""
        ...

    def dump(self, state: State) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> State: ...


def rng_from(seed: int, *salt: Any) -> random.Random:
    """A fresh RNG derived from a stored seed and a salt (e.g. the move number).

    Deriving instead of keeping a live RNG object makes states plain data that replay exactly.
    """
    return random.Random(f"{seed}:" + ":".join(map(str, salt)))


def ranks_from_scores(scores: list[float] | tuple[float, ...], higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranks (1, 1, 3 ...) from scores."""
    ordered = sorted(scores, reverse=higher_is_better)
    return tuple(ordered.index(score) + 1 for score in scores)


def play_out(
    engine: Engine[State],
    choose: Callable[[State, int, str, int], Mapping[str, Any]],
    state: State,
    moves: int,
    level: str = "medium",
    seed: int = 0,
) -> State:
    """Play up to ``moves`` actions with a computer player (for benchmarks and tests of later positions)."""
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, choose(state, seat, level, seed))
    return state
