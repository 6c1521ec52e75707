"""Game records: a finished game as plain text a player can keep, share and load back.

The format is PGN-like UTF-8 text: header tags, a blank line, then one line per action in the
game's notation (:meth:`engines.base.Game.notation`)::

    [Game "Octego"]
    [Date "2026-11-25"]
    [Seat1 "Ada"]
    [Seat2 "Bo"]
    [Seed "123"]
    [Result "1-0"]

    1. [1] Ada: c1-d2
    2. [2] Bo: f8-e7-d6

The Options tag holds, as a JSON object, only the options that change the game from its defaults
(none, no tag), plus what the engine names to replay it as dealt (Octagion's edition of its Word
Cards), so a record stays short and still replays when a default changes.

Tag values are JSON strings (quotes and backslashes escaped, nothing that breaks a line). An
action line puts the seat first, in brackets, so any name reads back: the name that follows must
be the seat's, and the notation is what comes after it and ": ".
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import Game, GameState, IllegalAction

__all__ = ["GameRecord", "changed_options", "read_record", "replay_record", "result_of", "write_record"]

RUNNING = "*"
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TAG_LINE = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*) (\".*\")\]")
_SEAT_TAG = re.compile(r"Seat([1-9][0-9]*)")
_ACTION_LINE = re.compile(r"([0-9]+)\. \[([0-9]+)\] (.*)")
_STANDARD_TAGS = ("Game", "Date", "Options", "Seed", "Result")
_LINE_BREAKING = frozenset("\u2028\u2029")


@dataclass(frozen=True)
class GameRecord:
    game: str  # engine name, e.g. "octego"
    names: tuple[str, ...]  # one per seat
    options: Mapping[str, Any]
    seed: int
    actions: tuple[tuple[int, dict[str, Any]], ...]  # (seat, action) in order
    date: str = ""  # ISO date the game started, "" if unknown
    result: str = ""  # e.g. "1-0", "1/2-1/2", or the ranks "1 2 2 1"; "" while unknown
    extra: Mapping[str, str] = field(default_factory=dict)  # further header tags (site, game id, reason)


# ---------------------------------------------------------------- writing


def write_record(engine: Game[Any], record: GameRecord) -> str:
    """The record as text; the notation of each action is worked out from the state before it."""
    if record.game != engine.name:
        raise ValueError(f"This record is of {record.game!r}, not {engine.name!r}.")
    tags = [("Game", engine.title)]
    tags += [("Date", record.date)] if record.date else []
    tags += [(f"Seat{seat + 1}", name) for seat, name in enumerate(record.names)]
    options = changed_options(engine, len(record.names), record.options, record.seed)
    tags += [("Options", json.dumps(options, sort_keys=True, ensure_ascii=False))] if options else []
    tags += [("Seed", str(record.seed)), ("Result", record.result or RUNNING)]
    for name, value in record.extra.items():
        _check_extra_tag(name)
        tags.append((name, value))
    lines = [f"[{name} {_quote(value)}]" for name, value in tags]
    lines.append("")
    state = engine.new_game(len(record.names), record.options, record.seed)
    for ply, (seat, action) in enumerate(record.actions, 1):
        lines.append(f"{ply}. [{seat + 1}] {_line_name(record.names[seat])}: {engine.notation(state, seat, action)}")
        state = engine.apply(state, seat, action)
    return "\n".join(lines) + "\n"


def changed_options(engine: Game[Any], players: int, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """``options`` without those that leave the game as its defaults start it: a key goes when the
    game started without it (and without the keys gone before it) is the same state, so the
    options kept start exactly the game ``options`` start. Keys the engine's ``replay_options``
    adds to replay a game as dealt (an edition of its cards) stay: a later default may differ."""
    state = engine.new_game(players, options, seed)
    start, pinned = engine.dump(state), engine.replay_options(state, {})
    kept = dict(options)
    for name in sorted(options):
        if name in pinned:
            continue
        without = {key: value for key, value in kept.items() if key != name}
        if engine.dump(engine.new_game(players, without, seed)) == start:
            kept = without
    return kept


def _check_extra_tag(name: str) -> None:
    if not _TAG_NAME.fullmatch(name) or name in _STANDARD_TAGS or _SEAT_TAG.fullmatch(name):
        raise ValueError(f"{name!r} cannot be an extra tag: use letters, digits and _, and no standard tag name.")


def _quote(text: str) -> str:
    """A JSON string that keeps emoji and accents but escapes whatever could break the line."""
    return "".join(_escaped(ch) for ch in json.dumps(str(text), ensure_ascii=False))


def _line_name(name: str) -> str:
    """The name as an action line shows it: as it is, with line-breaking characters escaped."""
    return "".join(_escaped(ch) for ch in name)


def _escaped(ch: str) -> str:
    if unicodedata.category(ch) == "Cc" or ch in _LINE_BREAKING:
        return f"\\u{ord(ch):04x}"
    return ch


# ---------------------------------------------------------------- reading


def read_record(engine: Game[Any], text: str) -> GameRecord:
    """The record ``text`` writes, replayed through the engine to read every action.

    ValueError names what is wrong with the header or a line; IllegalAction names the line
    whose action the game refuses."""
    lines = text.lstrip("\ufeff").split("\n")
    tags, first_action = _read_tags(lines)
    game = tags.pop("Game", None)
    if game is None:
        raise ValueError('The record has no [Game "..."] tag, so I cannot tell which game it is.')
    if game.strip().lower() not in (engine.title.lower(), engine.name):
        raise ValueError(f"This is a record of {game[:40]!r}, not of {engine.title}.")
    names = _read_names(tags)
    options, seed = _read_options(tags), _read_seed(tags)
    date, result = tags.pop("Date", ""), tags.pop("Result", RUNNING)
    try:
        state = engine.new_game(len(names), options, seed)
    except ValueError as error:
        raise ValueError(f"The record's players and options do not start a game of {engine.title}: {error}") from None
    actions: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines[first_action:], first_action + 1):
        if line.strip():
            seat, notation = _read_action_line(line, number, len(actions) + 1, names)
            action = _parsed(engine, state, seat, notation, number)
            state = _applied(engine, state, seat, action, number)
            actions.append((seat, action))
    if result not in ("", RUNNING) and result != result_of(state):
        raise ValueError(f"The record says the result is {result[:20]}, but its actions end {result_of(state)}.")
    result = "" if result == RUNNING else result  # "*": not known when the record was written
    return GameRecord(engine.name, names, options, seed, tuple(actions), date, result, tags)


def _read_tags(lines: list[str]) -> tuple[dict[str, str], int]:
    """The header's tags in order, and the index of the line after it."""
    tags: dict[str, str] = {}
    for index, line in enumerate(lines):
        line = line.rstrip("\r")
        if not line.strip():
            return tags, index + 1
        match = _TAG_LINE.fullmatch(line.strip())
        if match is None:
            raise ValueError(f'Line {index + 1} should be a tag like [Seed "123"]: {line.strip()[:60]!r}.')
        try:
            value = json.loads(match.group(2))
        except ValueError:
            raise ValueError(f"Line {index + 1}: I can't read the value of the {match.group(1)} tag.") from None
        if match.group(1) in tags:
            raise ValueError(f"Line {index + 1}: the {match.group(1)} tag is given twice.")
        tags[match.group(1)] = value
    return tags, len(lines)


def _read_names(tags: dict[str, str]) -> tuple[str, ...]:
    seats = sorted(int(match.group(1)) for name in tags if (match := _SEAT_TAG.fullmatch(name)))
    if not seats or seats != list(range(1, len(seats) + 1)):
        raise ValueError("The record needs one tag per seat: [Seat1 ...], [Seat2 ...] and so on, without gaps.")
    return tuple(tags.pop(f"Seat{seat}") for seat in seats)


def _read_options(tags: dict[str, str]) -> dict[str, Any]:
    try:
        options = json.loads(tags.pop("Options", "{}"))
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise ValueError('The Options tag must hold the game\'s options as a JSON object, like "{}".')
    return options


def _read_seed(tags: dict[str, str]) -> int:
    seed = tags.pop("Seed", "")
    if not re.fullmatch(r"-?[0-9]+", seed):
        raise ValueError('The record needs its seed as a whole number, like [Seed "123"].')
    return int(seed)


def _read_action_line(line: str, number: int, ply: int, names: tuple[str, ...]) -> tuple[int, str]:
    """(seat, notation) of the action line ``line`` (line ``number`` of the text)."""
    line = line.rstrip("\r")
    match = _ACTION_LINE.fullmatch(line.strip(" \t"))
    if match is None:
        raise ValueError(f"Line {number} should read like '{ply}. [1] Name: move', not {line.strip()[:60]!r}.")
    if int(match.group(1)) != ply:
        raise ValueError(f"Line {number} should be action {ply}, not {match.group(1)}.")
    seat = int(match.group(2)) - 1
    if not 0 <= seat < len(names):
        raise ValueError(f"Line {number}: there is no seat {match.group(2)} in a game of {len(names)}.")
    name = _line_name(names[seat]) + ": "
    if not match.group(3).startswith(name):
        raise ValueError(f"Line {number}: seat {seat + 1} is {names[seat][:40]!r}, so the line should go on '{name}'.")
    return seat, match.group(3)[len(name) :]


def _parsed(engine: Game[Any], state: GameState, seat: int, notation: str, number: int) -> dict[str, Any]:
    try:
        return engine.parse_notation(state, seat, notation)
    except IllegalAction as error:
        raise IllegalAction(f"Line {number}: I can't read {notation.strip()[:60]!r}: {error}") from None


def _applied(engine: Game[Any], state: GameState, seat: int, action: dict[str, Any], number: int) -> GameState:
    try:
        after: GameState = engine.apply(state, seat, action)
        return after
    except IllegalAction as error:
        raise IllegalAction(f"Line {number} does not replay: {error}") from None


# ---------------------------------------------------------------- replaying


def replay_record(engine: Game[Any], record: GameRecord) -> GameState:
    """The state the record's actions reach."""
    state: GameState = engine.replay(len(record.names), record.options, record.seed, record.actions)
    return state


def result_of(state: GameState) -> str:
    """The Result tag of a state: "1-0", "0-1" or "1/2-1/2" between two sides of one seat each,
    otherwise each seat's rank ("1 2 2 1"); "*" while the game runs."""
    outcome = state.outcome
    if outcome is None:
        return RUNNING
    if len(outcome.ranks) == 2 and len(outcome.sides()) == 2:
        return {(1, 2): "1-0", (2, 1): "0-1"}.get(outcome.ranks, "1/2-1/2")
    return " ".join(map(str, outcome.ranks))
