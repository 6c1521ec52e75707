"""Octagion: a timed speed-spelling race in teams (rules: shared/seeds/octagion.txt + rules/octagion.md).

The engine is pure and never reads a clock. Each round's length is ``round_seconds(state)``;
the bot schedules the deadline and applies ``{"type": "end_round", "reason": "timer",
"round": n}`` when it passes. A round is scored exactly once: ending it again, or calling
"Got it!" after it ended, raises IllegalAction; ``got_it`` may also carry ``"round": n`` so a
stale "Got it!" from an earlier round cannot end the current one.

Phases of a running game: ``"playing"`` (a round runs; every team edits its variant) and
``"between"`` (the round was scored; ``next_round`` starts the next). The game is over when
``state.outcome`` is set: after the last round is scored, or when no team (or only one of
several) has a player left.

Events (never English; ``render.octagion.narrate`` words them):

- ``round_start`` (seat None): ``round``, ``seconds``; recorded by ``new_game`` (ply 0) and ``next_round``;
- ``variant`` (the seat): ``team``; a variant changed. The cards stay out of the event: the other
  teams must not learn them;
- ``got_it`` (the caller): ``team``, ``round``;
- ``round_end`` (seat None): ``round``, ``reason`` ("timer", "got it"), ``got_it_team``,
  ``scores`` and ``totals`` (per team);
- ``resign`` (the seat): ``team``, ``team_out`` (no member of the team is left);
- ``end`` (the kit's, when the game finishes).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from engines.base import Game, GameState, IllegalAction, Outcome, rng_from

from .cards import (
    COUNTDOWN_CARDS,
    DECK,
    DECK_SET,
    FIRST_WORD_CARDS_EDITION,
    GAMMA_LEVELS,
    MAX_TREATMENT_CARDS,
    NUMBERS,
    STANDARD_TREATMENT_CARDS,
    TREATMENT,
    WORD_CARD_NAMES,
    WORD_CARDS_EDITION,
    WORD_LENGTH,
    WORDS_PER_CARD,
    word_at,
)
from .solver import best_variant, numbers_for, solution, solution_count

SCHEMA = 3
START_POINTS = 8
GOT_IT_BONUS = 2
DEFAULT_ROUNDS, MIN_ROUNDS, MAX_ROUNDS = 8, 1, 16
DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS = 120, 30, 300
ALPHA_START_SECONDS, ALPHA_STEP_SECONDS = 120, 5
MAX_PARTY_TEAM = 8

VARIATIONS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
# Named variations that switch on several rules at once.
COMBINATIONS = {"virulent": ("beta", "gamma", "delta", "epsilon"), "none": ()}
# Rules that imply another: Epsilon is Delta's word selection repeated for each team.
IMPLIES = {"epsilon": ("delta",)}
# (reconstruction) Treatment Cards default to the standard 3 when a variation that uses them is on.
TREATMENT_VARIATIONS = ("beta", "zeta")

# Reasons in a round's per-position breakdown.
OK, EMPTY, WRONG_LETTER, REPEATED_NUMBER, TREATMENT_OK = "ok", "empty", "wrong letter", "repeated number", "treatment"
# Why a round ended (``round_end`` events and the round's record).
TIMER, GOT_IT = "timer", "got it"
# Why the game ended (``Outcome.reason``).
ALL_ROUNDS, EVERYONE_LEFT, OTHERS_LEFT = "all rounds played", "everyone left", "the other teams left"


@dataclass(kw_only=True)
class OctagionState(GameState):
    options: dict[str, Any]  # normalised: rounds, variations, seconds, gamma_levels, party, word_cards
    teams: list[int]  # seat -> team index 0..team_count-1
    team_count: int
    treatments: list[int]  # Treatment Cards each team still has
    resigned: list[bool]  # per seat
    round: int = 1
    phase: str = "playing"  # or "between" (the round was scored); the end is ``outcome``
    words: list[str] = field(default_factory=list)  # per team, upper case
    word_refs: list[str] = field(default_factory=list)  # per team, e.g. "B17" (card letter + entry)
    seconds: int = DEFAULT_SECONDS
    countdown: int | None = None  # index of the Countdown Card turned up this round
    countdown_stack: list[int] = field(default_factory=list)  # top first
    word_stack: list[str] = field(default_factory=list)  # Word Card names, top first
    flipped_word_cards: int = 0  # Word Cards turned up this round (Delta/Epsilon collisions turn more)
    used_refs: list[str] = field(default_factory=list)  # words already asked this game (without Delta)
    variants: list[list[str | None]] = field(default_factory=list)  # per team, 8 cells
    # Per team, who placed each cell (a seat, or None): in party mode a member's answer replaces
    # only their own cells.
    owners: list[list[int | None]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # one record per scored round
    totals: list[int] = field(default_factory=list)  # per team


# ---------------------------------------------------------------- options and setup


def normalise_variations(raw: Any) -> list[str]:
    """The rules a choice of variations switches on: names or one text ("beta gamma", "virulent"),
    shorthands expanded, implied rules added; a ValueError says why a combination cannot be."""
    if isinstance(raw, str):
        raw = [name for name in re.split(r"[\s,+&/]+|\band\b", raw.lower()) if name] or None
    names = [raw] if isinstance(raw, str) or raw is None else list(raw)
    chosen: set[str] = set()
    for name in names:
        key = str(name or "none").strip().lower()
        if key in COMBINATIONS:
            chosen.update(COMBINATIONS[key])
        elif key in VARIATIONS:
            chosen.add(key)
        else:
            raise ValueError(f"unknown variation {name!r}: choose from none, virulent, " + ", ".join(VARIATIONS))
    for name in list(chosen):
        chosen.update(IMPLIES.get(name, ()))
    if {"alpha", "gamma"} <= chosen:
        raise ValueError("Alpha and Gamma both set the clock: choose one of them")
    return sorted(chosen)


def _normalise_teams(players: int, raw: Any) -> list[int]:
    if raw is None:
        return list(range(players))
    labels = [raw.get(seat, raw.get(str(seat))) for seat in range(players)] if isinstance(raw, Mapping) else list(raw)
    if len(labels) != players or any(label is None for label in labels):
        raise ValueError("teams must give a team for every seat")
    order: dict[Any, int] = {}
    for label in labels:
        order.setdefault(label, len(order))
    return [order[label] for label in labels]


def _int_option(options: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = int(options.get(key, default))
    if not low <= value <= high:
        raise ValueError(f"{key} must be between {low} and {high}, got {value}")
    return value


def _treatment_counts(options: Mapping[str, Any], variations: list[str], team_count: int) -> list[int]:
    default = STANDARD_TREATMENT_CARDS if set(variations) & set(TREATMENT_VARIATIONS) else 0
    base = _int_option(options, "treatment", default, 0, MAX_TREATMENT_CARDS)
    counts = [base] * team_count
    per_team = options.get("treatment_per_team")
    if per_team:
        if "beta" not in variations:
            raise ValueError("Treatment Cards per team are Rule Beta: turn Beta (or Virulent) on")
        items = per_team.items() if isinstance(per_team, Mapping) else enumerate(per_team)
        for team, count in items:
            team, count = int(team), int(count)
            if not 0 <= team < team_count or not 0 <= count <= MAX_TREATMENT_CARDS:
                raise ValueError(f"treatment_per_team: team {team} and 0..{MAX_TREATMENT_CARDS} cards expected")
            counts[team] = count
    return counts


def _shuffle_stacks(state: OctagionState) -> None:
    levels = GAMMA_LEVELS[state.options["gamma_levels"]] if has(state, "gamma") else (1, 2, 3)
    countdown = [card.index for card in COUNTDOWN_CARDS if card.level in levels]
    rng_from(state.seed, "countdown-stack").shuffle(countdown)
    words = list(WORD_CARD_NAMES)
    rng_from(state.seed, "word-stack").shuffle(words)
    state.countdown_stack, state.word_stack = countdown, words


# ---------------------------------------------------------------- queries


def has(state: OctagionState, variation: str) -> bool:
    return variation in state.options["variations"]


def team_of(state: OctagionState, seat: int) -> int:
    return state.teams[seat]


def team_members(state: OctagionState, team: int, active_only: bool = False) -> list[int]:
    return [seat for seat, t in enumerate(state.teams) if t == team and not (active_only and state.resigned[seat])]


def team_active(state: OctagionState, team: int) -> bool:
    return bool(team_members(state, team, active_only=True))


def party_numbers(state: OctagionState, seat: int) -> list[int]:
    """The numbers ``seat`` may place (all eight unless party mode splits them in its team).

    (reconstruction) The team's active members, in seat order, take consecutive blocks of
    numbers as even as possible: 3 players get 1-3, 4-6, 7-8.
    """
    if not state.options["party"]:
        return list(NUMBERS)
    members = team_members(state, team_of(state, seat), active_only=True)
    if seat not in members:
        return []
    index, count = members.index(seat), len(members)
    base, extra = divmod(len(NUMBERS), count)
    start = index * base + min(index, extra)
    return list(NUMBERS[start : start + base + (1 if index < extra else 0)])


def round_seconds(state: OctagionState) -> int:
    """How long the current round lasts (the bot schedules the deadline from this)."""
    return state.seconds


def _compute_seconds(state: OctagionState) -> int:
    if has(state, "alpha"):
        return ALPHA_START_SECONDS - ALPHA_STEP_SECONDS * (state.round - 1)
    if has(state, "gamma") and state.countdown is not None:
        return COUNTDOWN_CARDS[state.countdown].seconds
    seconds: int = state.options["seconds"]
    return seconds


def sequence_for(state: OctagionState, seat: int) -> str:
    """The word ``seat``'s team spells this round (upper case)."""
    return state.words[team_of(state, seat)]


# ---------------------------------------------------------------- word selection


def _start_round(state: OctagionState) -> None:
    state.phase = "playing"
    state.variants = [[None] * WORD_LENGTH for _ in range(state.team_count)]
    state.owners = []  # nobody placed anything yet (filled at the first card)
    uses_countdown = has(state, "gamma") or has(state, "delta")
    state.countdown = state.countdown_stack[0] if uses_countdown else None
    if has(state, "delta"):
        _select_words_delta(state)
    else:
        _select_word_at_random(state)
    state.seconds = _compute_seconds(state)
    state.record("round_start", None, round=state.round, seconds=state.seconds)


def _edition(state: OctagionState) -> int:
    """The edition of the Word Cards the game deals from (a game keeps the cards it started with)."""
    edition: int = state.options["word_cards"]
    return edition


def _select_word_at_random(state: OctagionState) -> None:
    """Without Delta someone picks a word from a Word Card: here, any entry not asked yet."""
    rng = rng_from(state.seed, "word", state.round)
    while True:
        ref = f"{rng.choice(WORD_CARD_NAMES)}{rng.randint(1, WORDS_PER_CARD)}"
        if ref not in state.used_refs:
            break
    state.used_refs.append(ref)
    word = word_at(ref[0], int(ref[1:]), has(state, "zeta"), _edition(state))
    state.words = [word] * state.team_count
    state.word_refs = [ref] * state.team_count


def _select_words_delta(state: OctagionState) -> None:
    """Rule Delta (and Epsilon per team): letter card number + Countdown offset = word entry.

    Epsilon: teams choose one at a time; a team whose word another team already has turns up
    the next Word Card and draws again. (reconstruction) After every Word Card was tried the
    team takes the first entry nobody has.
    """
    offset = COUNTDOWN_CARDS[cast(int, state.countdown)].offset  # delta always turns a countdown card
    zeta = has(state, "zeta")
    per_team = has(state, "epsilon")
    state.flipped_word_cards = 1
    words: list[str] = []
    refs: list[str] = []
    for team in range(state.team_count if per_team else 1):
        rng = rng_from(state.seed, "letter-card", state.round, team)
        attempts = 0
        while True:
            card = state.word_stack[(state.flipped_word_cards - 1) % len(state.word_stack)]
            number = int(rng.choice(DECK)[1:])
            ref = f"{card}{number + offset}"
            word = word_at(card, number + offset, zeta, _edition(state))
            if word not in words:
                break
            attempts += 1
            if attempts >= len(WORD_CARD_NAMES) * len(NUMBERS):
                ref, word = _first_unused(words, zeta, _edition(state))
                break
            state.flipped_word_cards = min(state.flipped_word_cards + 1, len(state.word_stack))
        words.append(word)
        refs.append(ref)
    if not per_team:
        words, refs = words * state.team_count, refs * state.team_count
    state.words, state.word_refs = words, refs


def _first_unused(taken: list[str], zeta: bool, edition: int) -> tuple[str, str]:
    for card in WORD_CARD_NAMES:
        for entry in range(1, WORDS_PER_CARD + 1):
            word = word_at(card, entry, zeta, edition)
            if word not in taken:
                return f"{card}{entry}", word
    raise AssertionError("more teams than words")


# ---------------------------------------------------------------- variants and parsing


# A card is a letter and its digits, all of them ("S55" is one card, not in the deck); a bare
# number is one digit, so "58617243" is eight positions.
_TOKEN = re.compile(r"([A-Z][0-9]+|[0-9])|(\*)|(_)")
_SEPARATORS = r"[\s,;.|/-]+"


def _tokens(text: str) -> list[tuple[str, re.Match[str] | None]]:
    """What was typed, token by token, read in each run between separators (so "S5 5" is two
    cards and "S55" one): (the text, its match or None when it cannot be read)."""
    found: list[tuple[str, re.Match[str] | None]] = []
    joined = re.sub(r"([A-Z])" + _SEPARATORS + r"(?=[0-9])", r"\1", text.upper())  # "S 5" is S5
    for chunk in (chunk for chunk in re.split(_SEPARATORS, joined) if chunk):
        at = 0
        while at < len(chunk):
            match = _TOKEN.match(chunk, at)
            if match:
                found.append((match.group(0), match))
                at = match.end()
                continue
            end = next((i for i in range(at + 1, len(chunk)) if _TOKEN.match(chunk, i)), len(chunk))
            found.append((chunk[at:end], None))
            at = end
    return found


def _card_error(card: str) -> str:
    letter = card[0]
    numbers = numbers_for(letter)
    if not numbers:
        return f"there is no {card} in the deck: no card carries the letter {letter}"
    listed = ", ".join(f"{letter}{n}" for n in numbers)
    return f"there is no {card} in the deck: {letter} comes as {listed}"


def parse_variant(text: str, sequence: str, treatments_left: int = MAX_TREATMENT_CARDS) -> list[str | None]:
    """Read a variant as a player types it: 8 cells, each a card name, "*" or None.

    Accepts ``S5 T7 R3``, ``S5T7R3A1N8G2E4R6``, bare numbers ``5 7 3 1 8 2 4 6`` (the card with
    the sequence's letter at that position), ``*`` for a Treatment Card and ``_`` for an
    empty position. Case, spaces and commas do not matter.
    """
    cells: list[str | None] = []
    for typed, match in _tokens(text):
        if match is None:
            raise IllegalAction(f"I can't read {typed[:3]!r}: write cards like S5, a number, * or _")
        card, star, blank = match.groups()
        if star:
            cells.append(TREATMENT)
        elif blank:
            cells.append(None)
        else:
            letter, number = (card[0], card[1:]) if card[0].isalpha() else ("", card)
            if number.startswith("0") or int(number) > len(NUMBERS):
                raise IllegalAction(f"card numbers go from 1 to 8, not {number}")
            if not letter:
                index = len(cells)
                if index >= len(sequence):
                    raise IllegalAction(f"a variant has at most {WORD_LENGTH} positions")
                letter = sequence[index].upper()
            cells.append(f"{letter}{number}")
    return validate_cells(cells, treatments_left)


def validate_cells(cells: Sequence[str | None], treatments_left: int) -> list[str | None]:
    """Check a variant's cells against the deck; return it padded to 8 cells."""
    if len(cells) > WORD_LENGTH:
        raise IllegalAction(f"a variant has at most {WORD_LENGTH} positions; you gave {len(cells)}")
    normalised: list[str | None] = []
    for raw in cells:
        cell = None if raw in (None, "", "_") else str(raw).strip().upper()
        if cell not in (None, TREATMENT):
            if cell not in DECK_SET:
                raise IllegalAction(
                    _card_error(cell)
                    if re.fullmatch(r"[A-Z][1-8]", cell)
                    else f"{raw!r} is not a card: write cards like S5"
                )
            if cell in normalised:
                raise IllegalAction(f"you used {cell} twice; the deck has only one {cell}")
        normalised.append(cell)
    used = normalised.count(TREATMENT)
    if used > treatments_left:
        have = (
            "no Treatment Cards"
            if treatments_left == 0
            else f"only {treatments_left} Treatment Card" + ("s" if treatments_left > 1 else "")
        )
        raise IllegalAction(f"your team has {have} left; this variant uses {used}")
    return normalised + [None] * (WORD_LENGTH - len(normalised))


@dataclass(frozen=True)
class ReadVariant:
    """A typed variant read forgivingly: its cells, and a sentence for each position left empty
    because what was typed there is no card ("R2 is not a card (R comes as R3, R6): left position 3 empty")."""

    cells: list[str | None]
    left_empty: list[str]


def _typed_cells(text: str, sequence: str) -> list[str | None]:
    """What a player typed, one cell per position, unchecked: a card ("S5"; a bare digit takes its
    position's letter), TREATMENT, None for "_", or what could not be read ("?X")."""
    cells: list[str | None] = []
    for typed, match in _tokens(text):
        if match is None:
            cells.append(typed)
            continue
        card, star, blank = match.groups()
        if star or blank:
            cells.append(TREATMENT if star else None)
        elif card[0].isdigit() and len(cells) < len(sequence):
            cells.append(f"{sequence[len(cells)].upper()}{card}")
        else:
            cells.append(card)
    if len(cells) > WORD_LENGTH:
        raise IllegalAction(f"a variant has at most {WORD_LENGTH} positions; you gave {len(cells)}")
    return cells + [None] * (WORD_LENGTH - len(cells))


def _not_a_card(token: str) -> str | None:
    """Why ``token`` is no card of the deck, or None."""
    if not re.fullmatch(r"[A-Z][0-9]+", token):
        return f"I can't read {token!r}"
    if len(token) > 2 or token[1] == "0" or int(token[1]) > len(NUMBERS):
        return f"{token} is not a card (card numbers go from 1 to 8)"
    if token in DECK_SET:
        return None
    numbers = numbers_for(token[0])
    if not numbers:
        return f"{token} is not a card (no card carries the letter {token[0]})"
    return f"{token} is not a card ({token[0]} comes as " + ", ".join(f"{token[0]}{n}" for n in numbers) + ")"


def keep_cards(cells: Sequence[str | None], typed: Sequence[int], treatments_left: int) -> ReadVariant:
    """``cells`` with each typed position (0-based, in ``typed``) kept only if it holds a card of
    the deck not already placed, or a Treatment Card the team still has; the others are left
    empty, each named. Positions not typed (a teammate's cards) are kept as they are."""
    kept = [None if index in typed else cell for index, cell in enumerate(cells)]
    left_empty: list[str] = []
    for index in sorted(typed):
        cell = cells[index]
        if cell == TREATMENT:
            problem = None if kept.count(TREATMENT) < treatments_left else _no_more_treatments(treatments_left)
        else:
            problem = _not_a_card(cast(str, cell)) or (  # a typed position holds what was typed
                f"{cell} is already at position {kept.index(cell) + 1}" if cell in kept else None
            )
        if problem:
            left_empty.append(f"{problem}: left position {index + 1} empty")
        else:
            kept[index] = cell
    return ReadVariant(kept, left_empty)


def read_variant(text: str, sequence: str, treatments_left: int = MAX_TREATMENT_CARDS) -> ReadVariant:
    """Read a variant as :func:`parse_variant` does, forgivingly (:func:`keep_cards`): a position
    whose card does not exist, cannot be read, is already placed or is a Treatment Card the team no
    longer has is left empty and named; the rest is kept. An answer with nothing to keep is refused,
    with the reason :func:`parse_variant` gives."""
    cells = _typed_cells(text, sequence)
    read = keep_cards(cells, [index for index, cell in enumerate(cells) if cell is not None], treatments_left)
    if read.left_empty and not any(read.cells):
        parse_variant(text, sequence, treatments_left)  # nothing to keep: refused with its reason
    return read


def _no_more_treatments(treatments_left: int) -> str:
    if treatments_left == 0:
        return "your team has no Treatment Cards left"
    return f"your team has only {treatments_left} Treatment Card" + ("s" if treatments_left > 1 else "") + " left"


def variant_action(state: OctagionState, seat: int, text: str) -> dict[str, Any]:
    """The ``set_variant`` action for what ``seat`` typed (raises IllegalAction if unreadable)."""
    _check_seat(state, seat)
    return {"type": "set_variant", "cards": typed_cells(state, seat, text)}


_CARD_WORD = re.compile(r"[A-Z][0-9]+|\*|_")


def _variant_of_cards(text: str) -> dict[str, Any] | None:
    """The set_variant a record line of cards writes (``S5 T7 _ *``), or None."""
    words = text.split()
    if not words or not all(_CARD_WORD.fullmatch(word) for word in words):
        return None
    return {"type": "set_variant", "cards": [None if word == "_" else word for word in words]}


def typed_cells(state: OctagionState, seat: int, text: str) -> list[str | None]:
    """The team's variant after ``seat`` typed ``text``: the whole variant, or in party mode the
    member's own cards merged into it."""
    return typed_variant(state, seat, text).cells


def typed_variant(state: OctagionState, seat: int, text: str) -> ReadVariant:
    """:func:`typed_cells` with the positions left empty because what was typed there is no card
    (:func:`keep_cards`); in party mode, of the member's own cards merged into the team's."""
    team = team_of(state, seat)
    if not state.options["party"]:
        return read_variant(text, state.words[team], state.treatments[team])
    before = [None if index + 1 in own_cells(state, seat) else cell for index, cell in enumerate(state.variants[team])]
    merged = merge_own_cards(state, seat, text)
    typed = [index for index, (old, new) in enumerate(zip(before, merged, strict=True)) if old != new]
    read = keep_cards(merged, typed, state.treatments[team])
    if read.left_empty and all(read.cells[index] is None for index in typed):
        validate_cells(merged, state.treatments[team])  # nothing of theirs to keep: refused with its reason
    return read


def left_empty(state: OctagionState) -> list[str]:
    """What the last action's typed variant left empty, one sentence per position
    ("R2 is not a card (R comes as R3, R6): left position 3 empty"); [] when nothing was."""
    return [note for event in state.events if event.kind == "variant" for note in event.data.get("left_empty", ())]


# ---------------------------------------------------------------- scoring


def score_variant(variant: Sequence[str | None], sequence: str, got_it: bool = False) -> dict[str, Any]:
    """Score one team's frozen variant: per-position breakdown, penalties and round points."""
    positions: list[dict[str, Any]] = []
    seen_numbers: set[int] = set()
    for index, cell in enumerate(list(variant)[:WORD_LENGTH]):
        if cell is None:
            reason = EMPTY
        elif cell == TREATMENT:
            reason = TREATMENT_OK
        else:
            number = int(cell[1:])
            if cell[0] != sequence[index].upper():
                reason = WRONG_LETTER
            elif number in seen_numbers:
                reason = REPEATED_NUMBER
            else:
                reason = OK
            seen_numbers.add(number)
        penalty = 0 if reason in (OK, TREATMENT_OK) else 1
        positions.append({"card": cell, "letter": sequence[index].upper(), "reason": reason, "points": -penalty})
    penalties = sum(-p["points"] for p in positions)
    bonus = 0
    if got_it:
        bonus = GOT_IT_BONUS if penalties == 0 else -GOT_IT_BONUS
    return {
        "positions": positions,
        "penalties": penalties,
        "got_it": got_it,
        "got_it_points": bonus,
        "score": START_POINTS - penalties + bonus,
    }


def _end_round(state: OctagionState, reason: str, caller_team: int | None) -> None:
    results: list[dict[str, Any] | None] = []
    solutions: dict[str, dict[str, Any]] = {}
    for team in range(state.team_count):
        word = state.words[team]
        if word not in solutions:
            solutions[word] = {"solution": solution(word), "count": solution_count(word), "best": best_variant(word)}
        if not team_active(state, team):
            results.append(None)
            continue
        variant = state.variants[team]
        scored = score_variant(variant, word, got_it=team == caller_team)
        scored["treatment_used"] = variant.count(TREATMENT)
        state.treatments[team] -= scored["treatment_used"]  # exposed Treatment Cards leave the game
        state.totals[team] += scored["score"]
        results.append(scored)
    scores = [r["score"] if r else 0 for r in results]
    state.history.append(
        {
            "round": state.round,
            "reason": reason,
            "got_it_team": caller_team,
            "seconds": state.seconds,
            "countdown": state.countdown,
            "words": list(state.words),
            "word_refs": list(state.word_refs),
            "variants": copy.deepcopy(state.variants),
            "results": results,
            "solutions": solutions,
            "scores": scores,
        }
    )
    # Used Countdown and Word Cards go to the bottom of their stacks.
    if state.countdown is not None:
        state.countdown_stack.remove(state.countdown)
        state.countdown_stack.append(state.countdown)
    if has(state, "delta"):
        flipped = state.word_stack[: state.flipped_word_cards]
        state.word_stack = state.word_stack[state.flipped_word_cards :] + flipped
    state.phase = "between"
    state.record(
        "round_end",
        None,
        round=state.round,
        reason=reason,
        got_it_team=caller_team,
        scores=scores,
        totals=list(state.totals),
    )


def final_outcome(
    teams: Sequence[int], resigned: Sequence[bool], totals: Sequence[int], team_count: int, reason: str
) -> Outcome:
    """Teams still in the game rank above teams whose players all left; then by total."""
    active = [any(not resigned[seat] for seat, t in enumerate(teams) if t == team) for team in range(team_count)]
    keys = [(active[t], totals[t]) for t in range(team_count)]
    team_ranks = [1 + sum(other > key for other in keys) for key in keys]
    return Outcome(
        ranks=tuple(team_ranks[team] for team in teams),
        scores=tuple(float(totals[team]) for team in teams),
        reason=reason,
        teams=tuple(teams),
    )


# ---------------------------------------------------------------- actions


def _check_seat(state: OctagionState, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction("you are not playing in this game")
    if state.resigned[seat]:
        raise IllegalAction("you left this game")
    if state.over:
        raise IllegalAction("the game is over")


def _require_playing(state: OctagionState) -> None:
    if state.phase != "playing":
        raise IllegalAction("the round is over")


def _check_party(state: OctagionState, seat: int, old: list[str | None], new: list[str | None]) -> None:
    if not state.options["party"]:
        return
    mine = set(party_numbers(state, seat))
    for before, after in zip(old, new, strict=True):
        if before == after:
            continue
        for cell in (before, after):
            if cell not in (None, TREATMENT) and int(cell[1:]) not in mine:
                listed = ", ".join(map(str, sorted(mine)))
                raise IllegalAction(
                    f"in party mode you place only cards numbered {listed}; {cell} is another team member's"
                )


def _owners(state: OctagionState, team: int) -> list[int | None]:
    """Who placed each cell of ``team``'s variant (a game stored before owners were kept knows nobody)."""
    if len(state.owners) != state.team_count:
        state.owners = [[None] * WORD_LENGTH for _ in range(state.team_count)]
    return state.owners[team]


def _change_variant(state: OctagionState, seat: int, cells: list[str | None], left_empty: Sequence[str] = ()) -> None:
    team = team_of(state, seat)
    _check_party(state, seat, state.variants[team], cells)
    owners = _owners(state, team)
    for index, (before, after) in enumerate(zip(state.variants[team], cells, strict=True)):
        if before != after:
            owners[index] = None if after is None else seat
    state.variants[team] = cells
    state.record("variant", seat, team=team, **({"left_empty": list(left_empty)} if left_empty else {}))


# ---------------------------------------------------------------- party mode: each member's own cards

_OWN_TOKEN = re.compile(r"(?:([1-8])[:=])?([A-Z][0-9]+|[0-9]|\*|_)")  # "S55": one card (not in the deck)


def parse_own_cards(text: str) -> list[tuple[int | None, str]]:
    """A party member's cards as typed: ``S5 T8`` (each where its letter is in the word), with
    positions, ``1:S5 4:T8`` (``4:8``: position 4's letter; ``2:*`` a Treatment Card; ``3:_``
    nothing there from you), or a whole row as ``/octagion play`` takes it, ``_ _ 3 1 _ 2``
    (position by position). Returns (position or None, token) pairs."""
    placed: list[tuple[int | None, str]] = []
    for chunk in (chunk for chunk in re.split(r"[\s,;|]+", text.upper()) if chunk):
        at = 0
        while at < len(chunk):
            match = _OWN_TOKEN.match(chunk, at)
            if not match:
                raise IllegalAction(
                    f"I can't read {chunk[at : at + 4]!r}: write your cards like S5, or 3:R3 with a position"
                )
            position, card = match.groups()
            placed.append((int(position) if position else None, card))
            at = match.end()
    if len(placed) > WORD_LENGTH:
        raise IllegalAction(f"a variant has {WORD_LENGTH} positions; you gave {len(placed)} cards")
    row = all(position is None for position, _ in placed)
    if row and any(not re.fullmatch(r"[A-Z][0-9]+", card) for _, card in placed):
        return [(index + 1, card) for index, (_, card) in enumerate(placed)]  # a row, position by position
    for position, card in placed:
        if position is None and not re.fullmatch(r"[A-Z][0-9]+", card):
            raise IllegalAction(f"give {card!r} a position, like 3:{card}: only a card with its letter finds its place")
    return placed


def own_cells(state: OctagionState, seat: int) -> dict[int, str]:
    """The cells ``seat`` placed in its team's variant (1-based positions); in a game stored before
    owners were kept, the cards of the seat's own numbers."""
    team = team_of(state, seat)
    mine = set(party_numbers(state, seat))
    cells, owners = state.variants[team], _owners(state, team)
    return {
        index + 1: cell
        for index, (cell, owner) in enumerate(zip(cells, owners, strict=True))
        if cell is not None and (owner == seat or (owner is None and cell != TREATMENT and int(cell[1:]) in mine))
    }


def merge_own_cards(state: OctagionState, seat: int, text: str) -> list[str | None]:
    """The team's variant with ``seat``'s cards replaced by those in ``text`` (party mode): the
    teammates' cards stay, so two members answering at once never undo each other."""
    team = team_of(state, seat)
    word = state.words[team]
    cells = list(state.variants[team])
    position: int | None
    for position in own_cells(state, seat):
        cells[position - 1] = None
    taken = {index + 1 for index, cell in enumerate(cells) if cell is not None}
    for position, card in parse_own_cards(text):
        if card == "_":
            continue  # already off: only your own cards were taken off
        if position is None:
            position = _free_place(word, card, taken)
        elif card[0].isdigit():
            card = f"{word[position - 1]}{card}"
        if position in taken:
            raise IllegalAction(f"position {position} already holds {cells[position - 1]}, a teammate's card")
        taken.add(position)
        cells[position - 1] = card
    return cells


def _free_place(word: str, card: str, taken: set[int]) -> int:
    """Where a card without a position goes: the first free position of its letter in the word."""
    places = [index + 1 for index, letter in enumerate(word) if letter == card[0]]
    if not places:
        raise IllegalAction(f"{word} has no {card[0]}: to place {card} anyway, give its position, like 3:{card}")
    free = [position for position in places if position not in taken]
    if not free:
        listed = ", ".join(map(str, places))
        raise IllegalAction(f"every {card[0]} of {word} (position {listed}) is taken: give a position to replace one")
    return free[0]


def _check_round(state: OctagionState, action: Mapping[str, Any]) -> None:
    """``end_round`` and ``got_it`` may name their round: a late one for an earlier round is rejected."""
    expected = action.get("round")
    if expected is not None and expected != state.round:
        raise IllegalAction(f"round {expected} is already over")


def legal_actions(state: OctagionState, seat: int) -> list[dict[str, Any]]:
    """The discrete actions: Got it!, and every card ``seat`` may place (or take back) in the
    team's variant, for menus and computer players; ``set_variant`` writes a whole variant."""
    if not 0 <= seat < state.players or state.resigned[seat] or state.over:
        return []
    if state.phase == "between":
        return [{"type": "next_round"}, {"type": "resign"}]
    team = team_of(state, seat)
    cells = state.variants[team]
    mine = set(party_numbers(state, seat))
    spare_treatment = state.treatments[team] > cells.count(TREATMENT)
    places = []
    for position, letter in enumerate(state.words[team], 1):
        current = cells[position - 1]
        if current not in (None, TREATMENT) and int(current[1:]) not in mine:
            continue  # another party member's card
        cards: list[str | None] = [f"{letter}{number}" for number in numbers_for(letter) if number in mine]
        cards += [TREATMENT] if spare_treatment else []
        cards += [None] if current is not None else []
        places += [{"type": "place", "position": position, "card": card} for card in cards if card != current]
    return [{"type": "got_it"}, *places, {"type": "resign"}]


# ---------------------------------------------------------------- stored games


def _fewest_actions(data: Mapping[str, Any], phase: str) -> int:
    """How many actions reached a schema-1 state, which kept no count: the fewest that could.

    Each scored round took its ending action plus one variant per team that placed a card; each
    later round a ``next_round``; the running round one variant per team with a card; each
    seat that left a resignation.
    """

    def placed(variants: Sequence[Sequence[str | None]]) -> int:
        return sum(any(cell is not None for cell in variant) for variant in variants)

    count: int = data["round"] - 1 + sum(1 + placed(record["variants"]) for record in data["history"])
    if phase == "playing":
        count += placed(data["variants"])
    resigned: list[bool] = data["resigned"]
    return count + sum(map(bool, resigned))


def _from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 said "over" with ``phase`` and ``end_reason`` and counted no actions."""
    data = dict(data)
    reason = data.pop("end_reason", None)
    outcome = None
    if data["phase"] == "over":
        history = data["history"]
        scored = bool(history) and history[-1]["round"] == data["round"]
        data["phase"] = "between" if scored else "playing"
        outcome = final_outcome(data["teams"], data["resigned"], data["totals"], data["team_count"], reason or "")
    data["outcome"] = None if outcome is None else dataclasses.asdict(outcome)
    data["ply"] = _fewest_actions(data, data["phase"])
    data["events"] = []
    data["schema"] = 2
    return data


def _from_schema_2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 had one edition of the Word Cards: a stored game goes on dealing from it."""
    data = dict(data)
    data["options"] = {**data["options"], "word_cards": FIRST_WORD_CARDS_EDITION}
    data["schema"] = 3
    return data


class OctagionEngine(Game[OctagionState]):
    name = "octagion"
    title = "Octagion"
    min_players = 1
    max_players = 25
    state_class = OctagionState
    schema = SCHEMA
    actions: ClassVar = {
        # A variant as typed ("S5 T7 _ *") or as cells (card names, "*", None): exactly one of the two.
        "set_variant": {"text?": str, "cards?": list[str | None]},
        "place": {"position": int, "card": str | None},  # None empties the position
        "got_it": {"round?": int},
        "end_round": {"reason?": str, "round?": int},
        "next_round": {},
    }
    # The bot's own actions (timer, next round): any seat may send them, even one that left.
    out_of_turn = frozenset({"end_round", "next_round"})
    migrations: ClassVar = {1: _from_schema_1, 2: _from_schema_2}
    history: ClassVar = ("owners",)

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctagionState:
        if players < 1:
            raise ValueError("Octagion needs at least one player")
        variations = normalise_variations(options.get("variation", options.get("variations")))
        teams = _normalise_teams(players, options.get("teams"))
        team_count = max(teams) + 1
        gamma_levels = str(options.get("gamma_levels", "standard")).lower()
        if gamma_levels not in GAMMA_LEVELS:
            raise ValueError("gamma_levels must be easy, standard or hard")
        party = bool(options.get("party", False))
        if party and any(teams.count(team) > MAX_PARTY_TEAM for team in range(team_count)):
            raise ValueError(f"in party mode a team has at most {MAX_PARTY_TEAM} players (one per number)")
        normalised = {
            "rounds": _int_option(options, "rounds", DEFAULT_ROUNDS, MIN_ROUNDS, MAX_ROUNDS),
            "seconds": _int_option(options, "seconds", DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS),
            "variations": variations,
            "gamma_levels": gamma_levels,
            "party": party,
            # New games deal from the newest Word Cards; a replay names the edition its game had.
            "word_cards": _int_option(options, "word_cards", WORD_CARDS_EDITION, 1, WORD_CARDS_EDITION),
        }
        state = OctagionState(
            seed=seed,
            players=players,
            schema=SCHEMA,
            options=normalised,
            teams=teams,
            team_count=team_count,
            treatments=_treatment_counts(options, variations, team_count),
            resigned=[False] * players,
            totals=[0] * team_count,
        )
        _shuffle_stacks(state)
        _start_round(state)
        return state

    def replay_options(self, state: OctagionState, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options that replay ``state``'s game as it was dealt: the stored ``options`` plus the
        edition of the Word Cards it deals from (a game stored before editions existed names none,
        yet deals from the first)."""
        return {**options, "word_cards": _edition(state)}

    def to_act(self, state: OctagionState) -> list[int]:
        if state.over:
            return []
        return [seat for seat in range(state.players) if not state.resigned[seat]]

    def teams(self, state: OctagionState) -> tuple[int, ...] | None:
        """Each seat's team: teammates are partners (a seat alone is a team of one)."""
        return tuple(state.teams)

    def legal_actions(self, state: OctagionState, seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def not_your_turn(self, state: OctagionState, seat: int) -> str:
        return "you left this game"  # everyone else acts at any time

    # ------------------------------------------------------------ notation (game records)
    def notation(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> str:
        """A variant of cards as /octagion play takes it: ``S5 T7 _ * ...`` (``_`` an empty
        position); the rest keeps the generic form."""
        cards = action.get("cards")
        if action.get("type") == "set_variant" and isinstance(cards, list) and cards:
            short = " ".join("_" if card is None else str(card) for card in cards)
            if _variant_of_cards(short) == action:
                return short
        return super().notation(state, seat, action)

    def parse_notation(self, state: OctagionState, seat: int, text: str) -> dict[str, Any]:
        return _variant_of_cards(text) or super().parse_notation(state, seat, text)

    # ------------------------------------------------------------ actions
    def play_set_variant(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> None:
        if ("text" in action) == ("cards" in action):
            raise IllegalAction("a variant is either its text (S5 T7 ...) or its cards, a list of up to 8")
        _require_playing(state)
        if "text" in action:
            read = typed_variant(state, seat, action["text"])
        else:
            read = ReadVariant(validate_cells(action["cards"], state.treatments[team_of(state, seat)]), [])
        _change_variant(state, seat, read.cells, read.left_empty)

    def play_place(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> None:
        _require_playing(state)
        position = action["position"]
        if not 1 <= position <= WORD_LENGTH:
            raise IllegalAction(f"positions go from 1 to {WORD_LENGTH}")
        team = team_of(state, seat)
        cells = list(state.variants[team])
        card = action["card"]
        card = None if card in (None, "", "_") else card.strip().upper()
        if card is not None and card != TREATMENT and card in cells and cells[position - 1] != card:
            cells[cells.index(card)] = None  # moving a card: it leaves its old position
        cells[position - 1] = card
        _change_variant(state, seat, validate_cells(cells, state.treatments[team]))

    def play_got_it(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> None:
        _check_round(state, action)
        _require_playing(state)
        team = team_of(state, seat)
        state.record("got_it", seat, team=team, round=state.round)
        self._score_round(state, GOT_IT, team)

    def play_end_round(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> None:
        _check_round(state, action)
        _require_playing(state)
        self._score_round(state, action.get("reason", TIMER), None)

    def play_next_round(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> None:
        if state.phase != "between":
            raise IllegalAction("the round is still running")
        state.round += 1
        _start_round(state)

    def play_resign(self, state: OctagionState, seat: int, action: Mapping[str, Any]) -> None:
        """A member leaves; the team plays on while a member remains. The game ends when no team,
        or only one of several, has a player left."""
        if state.resigned[seat]:
            raise IllegalAction("you left this game")
        team = team_of(state, seat)
        state.resigned[seat] = True
        out = not team_active(state, team)
        if out:
            state.variants[team] = [None] * WORD_LENGTH
        state.record("resign", seat, team=team, team_out=out)
        active_teams = [t for t in range(state.team_count) if team_active(state, t)]
        if not active_teams or (state.team_count > 1 and len(active_teams) == 1):
            self._finish(state, OTHERS_LEFT if active_teams else EVERYONE_LEFT)

    # ------------------------------------------------------------ helpers
    def _score_round(self, state: OctagionState, reason: str, caller_team: int | None) -> None:
        _end_round(state, reason, caller_team)
        if state.round >= state.options["rounds"]:
            self._finish(state, ALL_ROUNDS)

    def _finish(self, state: OctagionState, reason: str) -> None:
        self.finish(state, final_outcome(state.teams, state.resigned, state.totals, state.team_count, reason))
