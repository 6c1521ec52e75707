"""A game's turn menu as it declares it: an :class:`ActionMenu` of :class:`Step`s, each narrowing
the legal actions by one choice, and the :class:`Narrowing` a step's texts are computed from; and
how choices narrow and play, shared by the two windows that run the menus: :mod:`bot.ui.menus`
(Discord's selects) and the Activity's board (bot/features/activity/board.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.sessions import GameSession
from bot.core.workers import Drawing
from bot.ui.replies import UserError

GONE = "That choice is not possible now: open the menu again."
MISMATCH = "Those choices do not go together: pick again."
FORMALITIES_LIMIT = 16  # formalities played after one action at most (a turn has a few steps)


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

    Where its options sit on the Activity's board (render/regions.py): ``where(at, option)`` names
    the region of the viewer's board picture an option is drawn in ("square:c3", "hand:5H"), or
    None for an option with no place there (a button beside the board); ``buttons``: no option of
    the step has a place on the board (a path, a variant, pass). Every step says one or the other.
    """

    key: Callable[[Mapping[str, Any]], Any]
    prompt: Text
    label: Callable[[Narrowing, str], str] | None = None
    description: Callable[[Narrowing, str], str | None] | None = None
    placeholder: Text | None = None
    picture: Callable[[Narrowing], Drawing | None] | None = None  # drawn in a worker process
    many: bool = False
    where: Callable[[Narrowing, str], str | None] | None = None
    buttons: bool = False

    def region(self, at: Narrowing, option: str) -> str | None:
        """The name of the board region ``option`` sits in, or None (a button)."""
        return self.where(at, option) if self.where is not None else None

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


def menu_actions(menu: ActionMenu, engine: Any, session: GameSession, seat: int) -> list[dict[str, Any]]:
    """The actions ``menu`` narrows for ``seat`` now."""
    if menu.actions is not None:
        return menu.actions(session.state, seat)
    return [a for a in engine.legal_actions(session.state, seat) if a["type"] != "resign"]


def narrow(
    menu: ActionMenu, session: GameSession, seat: int, chosen: Sequence[str], actions: list[dict[str, Any]]
) -> tuple[Narrowing, int | None]:
    """Replay ``chosen`` over the steps: the narrowing and the step to ask next (None: one action left).
    A step with a single choice (or none: it does not concern what is left) is not asked."""
    at = Narrowing(session, seat, list(actions))
    answers = list(chosen)
    for index, step in enumerate(menu.steps):
        values = step.values(at.actions)
        if not values:
            continue  # the step does not concern what is left
        if len(values) == 1 and not step.many:
            answer = values[0]
        elif answers:
            answer = answers.pop(0)
        else:
            return at, index
        at.actions = step.keep(at.actions, answer)
        at.picked[index] = answer
        if not at.actions:
            raise UserError(MISMATCH if step.many else GONE)
    if len(at.actions) != 1 or answers:
        raise UserError(GONE)
    return at, None


def play(change: Any, menu: ActionMenu, engine: Any, seat: int, user_id: int, action: dict[str, Any]) -> None:
    """The player's action in a session's change and, in a turn of several actions, the
    formalities after it (the actions with nothing to decide)."""
    change.apply(seat, action, by=user_id)
    if menu.formality is None:
        return
    for _ in range(FORMALITIES_LIMIT):
        if change.outcome is not None or seat not in engine.to_act(change.state):
            break
        formal = menu.formality(change.state, seat)
        if formal is None:
            break
        change.apply(seat, formal, by=user_id)
