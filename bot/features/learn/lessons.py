"""Lessons as data: a position built through the game's engine, the task as the actions it accepts,
and the texts. A game's :class:`Series` is its lessons in the order a beginner needs them.

A lesson names the rules it teaches by phrases of the game's ``/rules`` text: each phrase must
occur in exactly one rule (a line of that text), so a rule rewritten away leaves a lesson naming
something that no longer exists, and tests/test_lessons.py says so; it also names any rule no
lesson teaches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Action = Mapping[str, Any]


def matches(action: Action, pattern: Action) -> bool:
    """Whether ``action`` is what ``pattern`` describes: every key the pattern gives has its value
    (``{"type": "rotate"}`` is any rotation)."""
    return all(key in action and action[key] == value for key, value in pattern.items())


@dataclass(frozen=True)
class Setup:
    """A position as the engine builds it: a new game with these options and seed, then these
    actions ((seat, action) pairs), all through the engine's public API."""

    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    actions: tuple[tuple[int, Action], ...] = ()
    players: int = 2

    def build(self, engine: Any) -> Any:
        return engine.replay(self.players, dict(self.options), self.seed, [(s, dict(a)) for s, a in self.actions])


@dataclass(frozen=True)
class Mistake:
    """A plausible wrong answer and what it teaches: ``actions`` (empty: any other legal action)."""

    text: str
    actions: tuple[Action, ...] = ()  # patterns (see :func:`matches`)

    def fits(self, action: Action) -> bool:
        return not self.actions or any(matches(action, wrong) for wrong in self.actions)


@dataclass(frozen=True)
class Lesson:
    key: str  # stable: stored in a member's progress and carried by the lesson's controls
    title: str
    text: str  # two or three sentences
    task: str  # what to do, with the game's own controls
    setup: Setup
    accepted: tuple[Action, ...]  # the right answers: patterns of the actions the menu offers (:func:`matches`)
    why: str  # one line, said when the answer is right
    mistakes: tuple[Mistake, ...]  # the first that fits a wrong answer explains it
    rules: tuple[str, ...]  # phrases of the game's rules text this lesson teaches
    marks: tuple[str, ...] = ()  # what the picture highlights (squares, boxes...)
    seat: int = 0  # the member's seat in the position
    example: str = ""  # a typed lesson's intended answer, as a member types it (TypedTask)
    # A timed round (a typed lesson): the rule first, then Start shows the position and starts its
    # clock (TypedTask.seconds); an answer after the deadline is a time-out, explained.
    timed: bool = False

    def accepts(self, action: Action) -> bool:
        return any(matches(action, right) for right in self.accepted)

    def explain(self, action: Action) -> str:
        for mistake in self.mistakes:
            if mistake.fits(action):
                return mistake.text
        return "That is legal, but it is not the task."


@dataclass(frozen=True)
class TypedTask:
    """A game whose lessons are answered by typing in the game's own form (Octagion's Build
    variant), not through a menu: the engine plays ``action(text)`` on the lesson's position and
    ``summary(state after, seat)`` is what the lesson's patterns (accepted, mistakes) match."""

    button: str  # the game's button that opens its form
    title: Callable[[Any], str]  # the form's title, from the position
    label: Callable[[Any, int], str]  # the text field's label (position, seat)
    placeholder: Callable[[Any, int], str]
    action: Callable[[str], dict[str, Any]]
    summary: Callable[[Any, int], dict[str, Any]]
    said: Callable[[Any, int], str]  # what the game tells the player after the answer
    seconds: Callable[[Any], int] = lambda state: 0  # a timed lesson's clock, from its position, as the game's
    time_up: str = ""  # what a clock running out means in a game (said when a timed lesson's answer is late)


@dataclass(frozen=True)
class Series:
    """A game's lessons, and the ending that sends the member to a real game."""

    game: str
    lessons: tuple[Lesson, ...]
    ready: str  # after the last lesson, beside the buttons to challenge or play the computer
    ready_rules: tuple[str, ...] = ()  # rules the ending teaches (the commands of a real game)
    typed: TypedTask | None = None  # answered in the game's form instead of its menu

    def __post_init__(self) -> None:
        keys = [lesson.key for lesson in self.lessons]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.game}: two lessons share a key")

    def lesson(self, key: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.key == key), None)

    def index(self, key: str) -> int:
        return [lesson.key for lesson in self.lessons].index(key)

    def after(self, key: str) -> Lesson | None:
        at = self.index(key) + 1
        return self.lessons[at] if at < len(self.lessons) else None

    def next_for(self, done: Collection[str]) -> Lesson | None:
        """Where a member resumes: the first lesson not done (None: all done)."""
        return next((lesson for lesson in self.lessons if lesson.key not in done), None)


# ---------------------------------------------------------------- the rules a series covers


def plain(text: str) -> str:
    """Rules text without its markup, lower case, spaces single (what rule phrases are matched in)."""
    text = re.sub(r"[*`_]", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def rule_units(rules_text: str) -> list[str]:
    """The rules of a game's ``/rules`` text: each line (a paragraph, a bullet, a numbered step)
    that is not a bold heading alone, as plain text."""
    units = []
    for line in rules_text.splitlines():
        heading = re.fullmatch(r"\*\*[^*]+\*\*:?", line.strip())  # "**Commands**" alone
        words = plain(line).lstrip("•-0123456789. ")
        if words and not heading:
            units.append(words)
    return units


def cited(series: Series) -> list[str]:
    """Every rule phrase the series names, its lessons' and its ending's."""
    return [phrase for lesson in series.lessons for phrase in lesson.rules] + list(series.ready_rules)


def rules_of(phrase: str, units: Sequence[str]) -> list[int]:
    """The rules (indexes into ``units``) a phrase occurs in."""
    wanted = plain(phrase)
    return [index for index, unit in enumerate(units) if wanted in unit]
