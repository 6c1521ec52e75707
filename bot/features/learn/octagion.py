"""Octagion's lessons, a guided practice round: solo rounds the engine deals from a seed (the word
comes with it), each answered in a form like the game's Build variant, and judged by the engine's
own scoring of the variant. The deck and scoring come first, untimed; then each variation is a
short timed round, its rule shown before the clock starts and the clock the engine's own."""

from __future__ import annotations

from typing import Any

from bot.features.learn.lessons import Lesson, Mistake, Series, Setup, TypedTask
from engines.octagion import TREATMENT, left_empty, round_seconds, score_variant, team_of
from render.octagion import variant_sentence


def solo(seed: int, actions: tuple[tuple[int, Any], ...] = (), **options: Any) -> Setup:
    """A one-player game (of one round unless ``rounds`` says): its word is the seed's."""
    return Setup({"rounds": 1, **options}, seed, actions, players=1)


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
    seconds=round_seconds,
    time_up="In a game the round ends right then and scores each variant as it stands: a position left empty "
    "costs a point, like a slip.",
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
        key="alpha",
        title="Alpha: shorter rounds",
        text=(
            "Each variation changes a game, and each is a timed round here. With **Alpha** every round gets 5 s "
            "shorter than the one before: 2:00, then 1:55, then 1:50. This is round 2. The word shows when "
            "the clock starts."
        ),
        task="Press **Start**, then spell the word before the clock runs out.",
        setup=solo(2, rounds=2, variation="alpha", actions=((0, {"type": "end_round"}), (0, {"type": "next_round"}))),
        accepted=PERFECT,
        why="A perfect variant in time: and the next round would be 5 s shorter again.",
        mistakes=(SLIPS,),
        example="G1 E3 N7 E5 R6 O8 U4 S2",
        rules=("alpha rounds get 5 s shorter",),
        timed=True,
    ),
    Lesson(
        key="beta",
        title="Beta: Treatment Cards",
        text=(
            "A blue **Treatment Card**, `*`, is a wildcard with no number: it fits any position, and each one "
            "can be used once per game. With **Beta** every team gets some (3 here; the host may set each "
            "team's in the lobby)."
        ),
        task="Press **Start**, then spell the word with one `*` in it and different numbers elsewhere.",
        setup=solo(3, variation="beta", seconds=60),
        accepted=({"penalties": 0, "treatments": 1},),
        why="The `*` took a position without a number, so the other seven were free to fit.",
        mistakes=(
            Mistake("A perfect variant, but without a Treatment Card: put `*` in one position.", ({"penalties": 0},)),
            SLIPS,
        ),
        example="S6 C7 R4 A2 * B3 L8 E1",
        rules=("beta treatment cards per team", "treatment card (`*`) is a wildcard"),
        timed=True,
    ),
    Lesson(
        key="gamma",
        title="Gamma: the Countdown Card",
        text=(
            "With **Gamma** a red **Countdown Card** turned up each round sets its time, from 0:45 to 1:55; "
            "the host picks easy, standard or hard cards. This round's card says 1:40."
        ),
        task="Press **Start**, then spell the word before the Countdown Card's time runs out.",
        setup=solo(2, variation="gamma"),
        accepted=PERFECT,
        why="Beaten in time: with Gamma every round's clock is a surprise.",
        mistakes=(SLIPS,),
        example="R6 E4 L8 I1 E3 V7 E2 D5",
        rules=("gamma countdown cards set each round's time", "gamma's countdown can be easy"),
        timed=True,
    ),
    Lesson(
        key="delta",
        title="Delta: the card picks the word",
        text=(
            "With **Delta** the Countdown Card picks the word too: a letter card's number plus the card's "
            "offset is the entry on the Word Card. Nobody chooses it, so nobody knows it before the clock."
        ),
        task="Press **Start**, then spell the word the cards picked.",
        setup=solo(3, variation="delta", seconds=60),
        accepted=PERFECT,
        why="Whatever word the cards pick, the same eight different numbers make it.",
        mistakes=(SLIPS,),
        example="C7 U4 R3 R6 E5 N8 C1 Y2",
        rules=("delta the countdown card picks the word",),
        timed=True,
    ),
    Lesson(
        key="epsilon",
        title="Epsilon: a word per team",
        text=(
            "With **Epsilon** every team gets its own word (Epsilon brings Delta's way of picking it), so "
            "copying is no use. **Virulent** is Beta, Gamma, Delta and Epsilon at once. Here I am the other team."
        ),
        task="Press **Start**, then spell your team's word, not mine.",
        setup=Setup({"rounds": 1, "variation": "epsilon", "seconds": 60, "teams": [0, 1]}, 2, players=2),
        accepted=PERFECT,
        why="Your word, your variant: with Epsilon each team races on its own word.",
        mistakes=(SLIPS,),
        example="S6 U4 S7 T8 A1 I5 N3 S2",
        rules=("epsilon every team gets its own word",),
        timed=True,
    ),
    Lesson(
        key="treatment",
        title="Zeta: words that need a Treatment Card",
        text=(
            "With **Zeta** the words may need Treatment Cards: a letter with no card left to fit it. "
            "Combine variations with `variation:beta gamma` or in the lobby (not Alpha with Gamma: both set "
            "the clock)."
        ),
        task="Press **Start**: where no card fits, a `*`; seven different numbers elsewhere.",
        setup=solo(9, variation="zeta", seconds=60),
        accepted=PERFECT,
        why="The Treatment Card filled the gap no number could: a perfect variant.",
        mistakes=(SLIPS,),
        example="T5 A1 * A2 T7 I4 O8 N3",
        rules=("zeta words may need treatment cards",),
        timed=True,
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
