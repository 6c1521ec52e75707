"""The kit every game engine is built from, so the bot can host any game the same way.

In the spirit of python-chess (``Board.push``, ``ply()``, ``outcome()``):

- a state is a dataclass deriving from :class:`GameState`: the game's own fields plus the
  shared ``seed``, ``players``, ``ply`` (actions applied so far), ``events`` (what the last
  action did, as :class:`Event` records, never English), ``outcome`` (None while the game
  runs) and ``schema``;
- an engine derives from :class:`Game` and writes one ``play_<type>(state, seat, action)``
  per action type, changing the copy it is given. :meth:`Game.apply` does everything around
  that the same way for every game: it refuses a malformed action, any action after the end
  and a seat that is not playing or not to act; it copies the state, advances ``ply``, handles
  ``resign`` and dispatches. ``new_game``, ``to_act`` and ``legal_actions`` stay per game.

A game package ``engines/<game>/`` exposes ``ENGINE`` and lists in ``__all__`` everything
``render/`` and ``bot/`` may use. Engines are pure: no discord, no Pillow, no asyncio, no I/O,
and randomness only through an RNG derived from the seed in the state.

Players are *seats*: ``0 .. players-1``. The bot maps Discord users to seats. Actions are
JSON-able dicts with a ``"type"`` key (``{"type": "move", "path": "c1-d2"}``); every engine
accepts ``{"type": "resign"}`` from any seat while the game runs, and ``{"type": "forfeit"}``, a
seat's loss on time (the platform's turn clock): a forfeit, not a resignation.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, wraps
from typing import Any, ClassVar, Generic, TypeGuard, TypeVar


class IllegalAction(Exception):
    """An action the rules forbid. ``str(error)`` is a sentence a player can read."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranks`` has one entry per seat, 1 = best; seats that tie share a rank (a draw is
    every seat at rank 1). ``scores`` are the numbers shown to players, one per seat.
    ``teams`` gives each seat's team where seats play together (Octagone's pairs, Octagion's
    teams), so ratings treat partners as one side; None means every seat plays for itself.
    ``reason`` is a short phrase for the result line ("resignation", "threefold repetition").
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


@dataclass(frozen=True)
class Event:
    """One thing that happened: ``kind`` ("move", "capture", "resign", "end" ...) done by
    ``seat`` (None: the game itself) during action number ``ply``, with JSON-able ``data``.
    Narrators in ``render/`` turn events into words."""

    ply: int
    seat: int | None
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(kw_only=True)
class GameState:
    """Fields every game's state has. Subclasses are dataclasses; states are plain data
    (lists, dicts, strings, numbers and frozen dataclasses), so they copy, dump and replay."""

    seed: int
    players: int
    ply: int = 0
    events: list[Event] = field(default_factory=list)  # what the last action did
    outcome: Outcome | None = None
    schema: int = field(default=1, compare=False)  # the engine writes its own schema when it dumps

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def record(self, kind: str, seat: int | None = None, **data: Any) -> None:
        """Note an event of the action being applied."""
        self.events.append(Event(self.ply, seat, kind, data))

    def copy(self: S) -> S:
        """A copy safe to change (frozen dataclasses inside, such as events, are shared)."""
        copied = object.__new__(type(self))
        copied.__dict__.update({name: _copy_plain(value) for name, value in self.__dict__.items()})
        return copied


S = TypeVar("S", bound=GameState)
# Actions every game accepts from any seat while it runs: a resignation, and a loss on time.
ALWAYS: dict[str, dict[str, Any]] = {"resign": {}, "forfeit": {}}

# A field spec in ``Game.actions``: a type (``str``, ``int``, ``list[str]``, ``str | None``);
# a field name ending in "?" is optional.
ActionSpec = Mapping[str, Mapping[str, Any]]


class Game(Generic[S]):
    """Base of every engine. Subclasses set the class attributes and write ``new_game``,
    ``to_act``, ``legal_actions`` and a ``play_<type>`` method per entry of ``actions``."""

    name: ClassVar[str]  # command name, e.g. "octego"
    title: ClassVar[str]  # display name, e.g. "Octego"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_class: ClassVar[type[GameState]]
    schema: ClassVar[int] = 1
    # Action types and their fields; "resign" is added for every game.
    actions: ClassVar[ActionSpec] = {}
    # Action types a seat may send when it is not among ``to_act`` (resign always may).
    out_of_turn: ClassVar[frozenset[str]] = frozenset()
    # migrations[n] turns a dumped state of schema n into schema n + 1.
    migrations: ClassVar[Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {}
    # State fields that keep the game's history for a rule (e.g. a draw by repetition). A state
    # stored before such a field existed starts it afresh when loaded: it never kept that history.
    history: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """An engine's own ``new_game`` is called only with a number of players between its
        ``min_players`` and ``max_players``; any other number is refused here, in a sentence."""
        super().__init_subclass__(**kwargs)
        if "new_game" in cls.__dict__:
            # Wrapping the subclass's own method is the point; mypy forbids assigning to a method.
            cls.new_game = _counting_players(cls.__dict__["new_game"])  # type: ignore[method-assign]

    # ------------------------------------------------------------ per game
    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> S:
        """A new game for ``players`` seats (between ``min_players`` and ``max_players``: any
        other number is a ValueError saying how many the game takes)."""
        raise NotImplementedError

    def to_act(self, state: S) -> list[int]:
        """The seats that may act now (several in a simultaneous game, none when over)."""
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> list[dict[str, Any]]:
        """Every action ``seat`` may take now (for menus and computer players); games whose
        action space cannot be listed (Octagion's variants) list the discrete ones."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs."""
        return state.outcome

    def when_time_runs_out(self, state: S, seat: int) -> dict[str, Any] | None:
        """What a seat whose turn clock ran out does when it was asked an optional question (e.g.
        Octiles' scramble: no scramble); None, the default, means the seat forfeits."""
        return None

    def not_your_turn(self, state: S, seat: int) -> str:
        return "It is not your turn."

    def scores(self, state: S) -> tuple[float, ...] | None:
        """The numbers shown beside a result the game did not count itself (a resignation);
        None: 1 for each winner, 0 for the others."""
        return None

    def replay_options(self, state: S, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options that replay ``state``'s game from its seed exactly as it was played (a game
        may add what changed since it was stored, e.g. which edition of its cards it dealt)."""
        return dict(options)

    def teams(self, state: S) -> tuple[int, ...] | None:
        """Each seat's team where seats play together; None: everyone for themselves."""
        return None

    # ------------------------------------------------------------ shared
    def apply(self, state: S, seat: int, action: Mapping[str, Any]) -> S:
        """The state after ``seat`` does ``action``; IllegalAction, with the reason, otherwise.
        The given state is never changed."""
        kind = self.check_shape(action)
        if state.outcome is not None:
            raise IllegalAction("The game is over.")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction("You are not playing in this game.")
        if kind not in ALWAYS and kind not in self.out_of_turn and seat not in self.to_act(state):
            raise IllegalAction(self.not_your_turn(state, seat))
        new = state.copy()
        new.ply += 1
        new.events = []
        getattr(self, f"play_{kind}")(new, seat, action)
        return new

    def play_resign(self, state: S, seat: int, action: Mapping[str, Any]) -> None:
        """The resigning seat's side loses; everyone else shares the win."""
        self._concede(state, seat, "resign", "resignation")

    def play_forfeit(self, state: S, seat: int, action: Mapping[str, Any]) -> None:
        """The seat ran out of time: its side loses as by a resignation, told as what it was."""
        self._concede(state, seat, "forfeit", "time forfeit")

    def _concede(self, state: S, seat: int, kind: str, reason: str) -> None:
        state.record(kind, seat)
        teams = self.teams(state) or tuple(range(state.players))
        ranks = tuple(2 if teams[other] == teams[seat] else 1 for other in range(state.players))
        scores = self.scores(state) or tuple(float(rank == 1) for rank in ranks)
        self.finish(state, Outcome(ranks, scores, reason, self.teams(state)))

    def finish(self, state: S, outcome: Outcome) -> None:
        """End the game (an "end" event tells the narrator)."""
        state.outcome = outcome
        state.record("end", None, reason=outcome.reason, winners=list(outcome.winners), draw=outcome.is_draw)

    def check_shape(self, action: Any) -> str:
        """The action's type, once it is a dict naming a known type with the right fields."""
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action is a dict with a type, like {'type': 'resign'}.")
        kind: str = action["type"]
        spec = {**ALWAYS, **self.actions}.get(kind)
        if spec is None:
            known = ", ".join(sorted({"resign", *self.actions}))  # a forfeit is the clock's, never typed
            raise IllegalAction(f"{self.title} has no action {kind[:40]!r}: the actions are {known}.")
        wanted = {name.rstrip("?"): (tp, name.endswith("?")) for name, tp in spec.items()}
        for name in action:
            if name != "type" and name not in wanted:
                raise IllegalAction(f"{_a(kind).capitalize()} action has no field {str(name)[:40]!r}.")
        for name, (tp, optional) in wanted.items():
            if name not in action:
                if optional:
                    continue
                raise IllegalAction(f"{_a(kind).capitalize()} action needs its {name}.")
            if not _matches(action[name], tp):
                raise IllegalAction(f"The {name} of {_a(kind)} action must be {_type_words(tp)}.")
        return kind

    # ------------------------------------------------------------ notation (game records)
    def notation(self, state: S, seat: int, action: Mapping[str, Any]) -> str:
        """``action`` as one line of a game record; ``state`` is the state before it. This
        generic form works for every game: ``place shield=green direction=NE``, lists joined by
        commas, None as ``-``, yes/no, and as JSON any value that would not read back exactly.
        Games override it with their own notation for their main actions."""
        kind = action.get("type")
        fields = _field_specs(self.actions.get(kind, {})) if isinstance(kind, str) else {}
        words = [kind if _is_plain_word(kind) else _as_json(kind)]
        for name, value in action.items():
            if name != "type":
                words.append(f"{name}={_write_value(value, fields.get(name, Any))}")
        return " ".join(words)

    def parse_notation(self, state: S, seat: int, text: str) -> dict[str, Any]:
        """The action ``text`` writes in :meth:`notation`; IllegalAction, with the reason, otherwise."""
        kind, _, rest = re.sub(r"\s", " ", text.strip(), count=1).partition(" ")
        known = {**ALWAYS, **self.actions}
        if kind not in known:
            names = ", ".join(sorted(set(known) - {"forfeit"}))  # a forfeit is the clock's, never typed
            raise IllegalAction(
                f"I can't read {text.strip()[:60]!r} as {self.title} notation: the actions are {names}."
            )
        action = {"type": kind, **_read_fields(rest, _field_specs(known[kind]))}
        self.check_shape(action)
        return action

    def replay(self, players: int, options: Mapping[str, Any], seed: int, actions: Sequence[tuple[int, Any]]) -> S:
        """The state reached by ``actions`` (seat, action) from a new game: a game record replays exactly."""
        state = self.new_game(players, options, seed)
        for seat, action in actions:
            state = self.apply(state, seat, action)
        return state

    # ------------------------------------------------------------ storage
    def dump(self, state: S) -> dict[str, Any]:
        """JSON-able data; :meth:`load` reads it back (older schemas through ``migrations``)."""
        data: dict[str, Any] = _to_plain(state)
        data["schema"] = self.schema
        return data

    def load(self, data: Mapping[str, Any]) -> S:
        data = dict(data)
        version = data.get("schema", data.get("schema_version"))
        if not isinstance(version, int) or version > self.schema:
            raise ValueError(f"cannot load a {self.title} state of schema {version!r} (this engine has {self.schema})")
        while version < self.schema:
            if version not in self.migrations:
                raise ValueError(f"no migration from {self.title} state schema {version}")
            data = self.migrations[version](data)
            version += 1
        data["schema"] = version
        state: S = _from_plain(self.state_class, data)
        return state


def _counting_players(new_game: Callable[..., S]) -> Callable[..., S]:
    """``new_game`` behind the check of the number of players the engine declares."""

    @wraps(new_game)
    def checked(self: Game[Any], players: int, options: Mapping[str, Any], seed: int) -> S:
        if players < self.min_players:
            raise ValueError(f"{self.title} needs at least {_players(self.min_players)}, not {players}.")
        if players > self.max_players:
            raise ValueError(f"{self.title} takes at most {_players(self.max_players)}, not {players}.")
        return new_game(self, players, options, seed)

    return checked


def _players(count: int) -> str:
    return "one player" if count == 1 else f"{count} players"


# ---------------------------------------------------------------- helpers for engines


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
    engine: Game[S],
    choose: Callable[[S, int, str, int], Mapping[str, Any]],
    state: S,
    moves: int,
    level: str = "medium",
    seed: int = 0,
) -> S:
    """Play up to ``moves`` actions with a computer player (for benchmarks and tests of later positions)."""
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, choose(state, seat, level, seed))
    return state


# ---------------------------------------------------------------- generic notation

_JSON_STARTS = ('"', "[", "{")
_FIELD = re.compile(r"\s*([A-Za-z_]\w*)=")


def _field_specs(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {name.rstrip("?"): tp for name, tp in spec.items()}


def _is_plain_word(text: Any) -> TypeGuard[str]:
    """Text written as it is: no spaces, commas or '=', not empty, not starting like JSON."""
    return (
        isinstance(text, str)
        and text != ""
        and not text.startswith(_JSON_STARTS)
        and all(ch.isprintable() and not ch.isspace() and ch not in ",=" for ch in text)
    )


def _as_json(value: Any) -> str:
    """ASCII JSON: nothing in it can break a line or a word of the record."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def _plain(value: Any, tp: Any) -> str | None:
    """``value`` in the short form of its field type, or None when it has none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | str):
        return str(value) if _is_plain_word(str(value)) else None
    if isinstance(value, list) and value and typing.get_origin(tp) is list:
        items = [_plain(item, typing.get_args(tp)[0]) for item in value]
        return None if None in items else ",".join(typing.cast(list[str], items))
    return None


def _read_plain(text: str, tp: Any) -> Any:
    """The value a short-form word stands for in a field of type ``tp``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is list:
        return [_read_plain(item, args[0]) for item in text.split(",")]
    options = args if origin in (typing.Union, types.UnionType) else (tp,)
    if text == "-" and type(None) in options:
        return None
    if text in ("yes", "no") and bool in options:
        return text == "yes"
    if re.fullmatch(r"-?[0-9]+", text) and int in options:
        return int(text)
    return text


def _write_value(value: Any, tp: Any) -> str:
    """The short form when it reads back exactly (types included), else JSON."""
    short = _plain(value, tp)
    if short is not None and _same(_read_plain(short, tp), value):
        return short
    return _as_json(value)


def _same(read: Any, value: Any) -> bool:
    """Equal with the same JSON types (True is not 1, "1" is not 1)."""
    return type(read) is type(value) and json.dumps(read) == json.dumps(value)


def _read_fields(text: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """``name=value`` words as a dict, in the order written; IllegalAction on a bad text."""
    values: dict[str, Any] = {}
    position, end = 0, len(text.rstrip())
    while position < end:
        match = _FIELD.match(text, position)
        if match is None:
            raise IllegalAction(f"I can't read {text[position:].strip()[:40]!r}: write each field as name=value.")
        name, position = match.group(1), match.end()
        if name in values:
            raise IllegalAction(f"The field {name} is written twice.")
        values[name], position = _read_value(text, position, fields.get(name, Any))
        if position < len(text) and not text[position].isspace():
            raise IllegalAction(f"The {name} is followed by {text[position:][:20]!r} without a space.")
    return values


def _read_value(text: str, position: int, tp: Any) -> tuple[Any, int]:
    if text.startswith(_JSON_STARTS, position):
        try:
            return json.JSONDecoder().raw_decode(text, position)
        except ValueError:
            raise IllegalAction(f"I can't read {text[position:][:40]!r} as a quoted value.") from None
    word = re.match(r"\S*", text[position:]).group()  # type: ignore[union-attr]
    if not word:
        raise IllegalAction("A field has no value after its '='.")
    return _read_plain(word, tp), position + len(word)


# ---------------------------------------------------------------- plain data


def _copy_plain(value: Any) -> Any:
    """A copy of JSON-like data; frozen dataclasses (events, placements) are shared, not copied."""
    if isinstance(value, list):
        return [_copy_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _copy_plain(item) for key, item in value.items()}
    return value


def _to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [_to_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _to_plain(item) for key, item in value.items()}
    return value


@cache
def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _from_plain(tp: Any, value: Any) -> Any:
    """Rebuild ``value`` as type ``tp`` (dataclasses, tuples and containers of them)."""
    return _loader(tp)(value)


@cache
def _loader(tp: Any) -> Callable[[Any], Any]:
    """A function rebuilding values of type ``tp``, worked out once per type: the bot loads a
    state at every click, and reading the type hints each time was most of that."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [arg for arg in args if arg is not type(None)]
        return _or_none(_loader(inner[0]) if len(inner) == 1 else _copy_plain)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        fields = {name: _loader(field_type) for name, field_type in _field_types(tp).items()}
        return _or_none(lambda value: tp(**{k: fields[k](v) for k, v in value.items() if k in fields}))
    if origin is list:
        item = _loader(args[0])
        return _or_none(lambda value: [item(v) for v in value])
    if origin is tuple:
        item = _loader(args[0] if args else Any)
        return _or_none(lambda value: tuple(item(v) for v in value))
    if origin in (dict, Mapping):
        item = _loader(args[1])
        return _or_none(lambda value: {k: item(v) for k, v in value.items()})
    if tp in (int, float, str, bool):
        return lambda value: value  # immutable: nothing to copy
    return _copy_plain


def _or_none(load: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else load(value)


def _matches(value: Any, tp: Any) -> bool:
    if tp is Any:
        return True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arg) for arg in args)
    if tp is type(None):
        return value is None
    if origin is list:
        return isinstance(value, list | tuple) and all(_matches(item, args[0]) for item in value)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def _a(word: str) -> str:
    """``word`` with its indefinite article: "a move", "an add"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _type_words(tp: Any) -> str:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_words(arg) for arg in args)
    if origin is list:
        return f"a list of {_type_words(args[0]).removeprefix('a ').removeprefix('an ')}s"
    return {str: "a text", int: "a whole number", bool: "true or false", type(None): "empty"}.get(tp, "valid")
