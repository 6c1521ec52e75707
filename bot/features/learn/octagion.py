"""Octagion's lessons, a guided practice round: solo rounds the engine deals from a seed (the word
comes with it), each answered in a form like the game's Build variant, and judged by the engine's
own scoring of the variant."""

from __future__ import annotations

from typing import Any

from bot.features.learn.lessons import Lesson, Mistake, Series, Setup, TypedTask
from engines.octagion import TREATMENT, left_empty, score_variant, team_of
from render.octagion import variant_sentence


def solo(seed: int, **options: Any) -> Setup:
    """A one-player game of one round: its word is the seed's."""
    return Setup({"rounds": 1, **options}, seed, players=1)


def summary(state: Any, seat: int) -> dict[str, Any]:
    """The variant as the engine scores it: its penalties, and how many Treatment Cards it holds."""
    team = team_of(state, seat)
    cells = state.variants[team]
    scored = score_variant(cells, state.words[team])
    return {"penalties": scored["penalties"], "treatments": cells.count(TREATMENT)}


def said(state: Any, seat: int) -> str:
    """What the game tells the player after a variant: the cards left out, the variant and its slips."""
    notes = "".join(f"⚠️ {note[0].upper()}{note[1:]}. " for note in left_empty(state))
    return notes + variant_sentence(state, seat)


def word(state: Any, seat: int) -> str:
    return str(state.words[team_of(state, seat)])


TYPED = TypedTask(
    button="Build variant",
    title=lambda state: f"Octagion · round {state.round}",
    label=lambda state, seat: f"Spell {word(state, seat)}",
    placeholder=lambda state, seat: " ".join(f"{letter}#" for letter in word(state, seat)[:3]) + " … (# a card number)",
    action=lambda text: {"type": "set_variant", "text": text[:200]},
    summary=summary,
    said=said,
)
PERFECT = ({"penalties": 0},)
SLIPS = Mistake(
    "Each slip costs a point: a wrong letter, an empty position, or a number already used further left "
    "(a wrong letter's number still counts)."
)

LESSONS = (
    Lesson(
        key="deck",
        title="Your deck and the word",
        text=(
            "Your deck has 48 cards, each a letter and a number from 1 to 8. A round reveals an 8-letter word, "
            "the sequence, and starts the clock: build your variant, one card per position spelling it, with "
            "**eight different numbers**. **My deck** shows your cards; **Build variant** is where you type."
        ),
        task="Press **Build variant** and spell **REASONED**, e.g. starting `R6 E4 A1 S2`: every number once.",
        setup=solo(7),
        accepted=PERFECT,
        why="Eight letters, eight different numbers: a perfect variant scores 8.",
        mistakes=(SLIPS,),
        example="R6 E4 A1 S2 O8 N7 E3 D5",
        rules=("speed-spelling race", "a round: an 8-letter word", "build variant (button)", "my deck (button)"),
    ),
    Lesson(
        key="scoring",
        title="Scoring, and typing fast",
        text=(
            "You start at 8 points and lose 1 per empty position, wrong letter or number used further left. "
            "**Got it!** ends the round for everyone: +2 if your variant is perfect, -2 if not. Typing is "
            "quicker with digits alone: a digit is the card of that number with its position's letter "
            "(`/octagion play cards:` takes the same)."
        ),
        task="Spell **PAINTING** with digits alone: `3 2 5 6 7 4 8 1`, or your own eight numbers.",
        setup=solo(8),
        accepted=PERFECT,
        why="Each digit took its position's letter: a perfect variant, worth Got it!'s +2.",
        mistakes=(SLIPS,),
        example="3 2 5 6 7 4 8 1",
        rules=("scoring: start at 8 points", "/octagion play cards", "got it! (button)"),
    ),
    Lesson(
        key="treatment",
        title="Treatment Cards and variations",
        text=(
            "A blue Treatment Card, `*`, is a wildcard with no number, usable once per game. Variations change "
            "a game: Alpha shortens each round, Beta gives Treatment Cards, Gamma and Delta use Countdown Cards, "
            "Epsilon gives each team its own word, and Zeta's words may need Treatment Cards, like this one."
        ),
        task="No card carries an X: spell **TAXATION** with `*` for the X and seven different numbers.",
        setup=solo(9, variation="zeta"),
        accepted=({"penalties": 0},),
        why="The Treatment Card filled the gap no number could: a perfect variant.",
        mistakes=(SLIPS,),
        example="T5 A1 * A2 T7 I4 O8 N3",
        rules=("variations: alpha",),
    ),
)

SERIES = Series(
    game="octagion",
    lessons=LESSONS,
    ready=(
        "`/octagion start` opens a lobby (alone, a practice game; `variation:` adds any of them); players "
        "**Join**, the host may add computer teams, then presses **Start**. In team games with `party`, a "
        "team's members split the eight numbers. `/octagion resign` leaves a game, and **Octagion Daily** "
        "(`/octagion daily play`, then `/octagion daily results`) is one word a day for everyone."
    ),
    ready_rules=(
        "/octagion start [rounds]",
        "party mode: a team's members split",
        "computer teams: the host adds them",
        "/octagion resign leaves the game",
        "octagion daily: one word a day",
        "/octagion daily results [date]",
    ),
    typed=TYPED,
)
