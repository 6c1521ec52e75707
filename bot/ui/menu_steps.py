"""A game's turn menu as it declares it: an :class:`ActionMenu` of :class:`Step`s, each narrowing
the legal actions by one choice, and the :class:`Narrowing` a step's texts are computed from
(:mod:`bot.ui.menus` runs them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.sessions import GameSession
from bot.core.workers import Drawing


@dataclass
class Narrowing:
    """Where a player is in a menu: the actions still possible and the choices made so far."""

    session: GameSession
    seat: int
    actions: list[dict[str, Any]]
    picked: dict[int, str] = field(default_factory=dict)  # step index -> choice (skipped steps too)

    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def names(self) -> list[str]:
        return self.session.shown_names

    def choice(self, step: int) -> str | None:
        return self.picked.get(step)


Text = str | Callable[[Narrowing], str]


@dataclass(frozen=True)
class Step:
    """One question of a menu.

    ``key(action)`` is the action's answer to it (a short text without "|"), or None when the
    question does not concern that action. ``many``: the answer is several options at once
    (``key`` returns a tuple), e.g. the cards of a run.
    """

    key: Callable[[Mapping[str, Any]], Any]
    prompt: Text
    label: Callable[[Narrowing, str], str] | None = None
    description: Callable[[Narrowing, str], str | None] | None = None
    placeholder: Text | None = None
    picture: Callable[[Narrowing], Drawing | None] | None = None  # drawn in a worker process
    many: bool = False

    def values(self, actions: Sequence[Mapping[str, Any]]) -> list[str]:
        """The distinct answers of ``actions``, in the engine's order (each option of a many-step)."""
        found: dict[str, None] = {}
        for action in actions:
            answer = self.key(action)
            if answer is None:
                continue
            for value in answer if self.many else (answer,):
                found[str(value)] = None
        return list(found)

    def keep(self, actions: Sequence[Mapping[str, Any]], chosen: str) -> list[dict[str, Any]]:
        if self.many:
            wanted = sorted(chosen.split("+"))
            return [a for a in actions if self.key(a) is not None and sorted(map(str, self.key(a))) == wanted]
        return [a for a in actions if self.key(a) is not None and str(self.key(a)) == chosen]


@dataclass(frozen=True)
class ActionMenu:
    """A game's menu: its steps, the button that opens it and the actions it offers."""

    name: str  # unique across games: it is part of the custom ids
    steps: Sequence[Step]
    button: str = "Move"
    # The actions the menu narrows (default: the engine's legal actions except resign).
    actions: Callable[[Any, int], list[dict[str, Any]]] | None = None
    # For autocomplete of a command: an action as the player would type it, and its suggestion text.
    typed: Callable[[Mapping[str, Any]], str] | None = None
    suggestion: Callable[[Narrowing, Mapping[str, Any]], str] | None = None
    matches: Callable[[str, str], bool] | None = None  # (typed value, what is typed so far)
    # A turn of several actions (Octa's steps): ``formality(state, seat)`` is an action with nothing
    # to decide (the only one left, or "no exchange" when none is possible), played for the player
    # right after their own; and while they stay on turn, the private menu goes on with the next step.
    formality: Callable[[Any, int], dict[str, Any] | None] | None = None
