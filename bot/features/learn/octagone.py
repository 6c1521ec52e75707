"""Octagone's lessons: positions the engine builds from a new game and a few placements, each
played with Octagone's own Place menu."""

from __future__ import annotations

from bot.features.learn.lessons import Lesson, Mistake, Series, Setup
from engines.octagone import ADVANCED, BASIC, DIRECTIONS

SEED = 1  # two players or four: seat 0 starts (the White Lady is theirs)


def lady(box: str, direction: str) -> dict[str, str]:
    return {"type": "white_lady", "box": box, "direction": direction}


def place(shield: str, direction: str) -> dict[str, str]:
    return {"type": "place", "shield": shield, "direction": direction}


def every_aim(shield: str) -> tuple[dict[str, str], ...]:
    """The shield on the target, whichever way it is aimed (the menu offers only free boxes)."""
    return tuple(place(shield, direction) for direction in DIRECTIONS)


def game(level: str, *actions: tuple[int, dict[str, str]], players: int = 2) -> Setup:
    return Setup({"level": level}, SEED, tuple(actions), players)


JOKER_WASTED = Mistake(
    "A joker fits any row, but you have only three: keep them for a target no colour of yours fits.",
    every_aim("joker"),
)

LESSONS = (
    Lesson(
        key="opening",
        title="The board and the White Lady",
        text=(
            "The board has 42 boxes, rows A–F (top to bottom) and columns 1–7, each row in its colour: "
            "A orange, B sky blue, C green, D yellow, E blue, F pink. The starter opens by putting the "
            "White Lady on any box and aiming her arrow; she leaves after the next player's turn."
        ),
        task="Press **Place**: put the White Lady on **C4** (row C, then column 4) and aim her arrow **E**.",
        setup=game(BASIC),
        accepted=(lady("C4", "E"),),
        why="Her arrow points east along row C: the next player's target is the first free box there, C5.",
        mistakes=(Mistake("That is another box or another direction: the task is C4, aimed E (east)."),),
        rules=("42 boxes", "opening: the starter", "place button: pick your shield"),
        marks=("C4",),
    ),
    Lesson(
        key="target",
        title="The target and your shield",
        text=(
            "The last arrow points along its row, column or diagonal: the first free box on that line is the "
            "target. Put a shield of the target's row colour, or a joker, on it and aim its arrow at a free box "
            "(the menu says which box each direction designates). You want to get rid of your shields: "
            "whoever holds the fewest at the end wins."
        ),
        task="The White Lady's arrow designates **C5**: place a **green** shield there (row C is green) and aim it.",
        setup=game(BASIC, (0, lady("C4", "E"))),
        accepted=every_aim("green"),
        why="A green shield on a green row's box; its arrow now sets the next target.",
        mistakes=(JOKER_WASTED,),
        rules=("a turn: the last shield's arrow", "get rid of your shields", "/octagone place shield:green"),
        marks=("C4", "C5"),
        seat=1,
    ),
    Lesson(
        key="skipping",
        title="Occupied boxes are skipped",
        text=(
            "The arrow on C4 points east, but C5 holds a shield: occupied boxes are skipped, so the target is "
            "C6. A player with no fitting shield and no joker skips, and the next player plays on the same box. "
            "The game ends when a shield cannot be aimed at any free box, nobody can play on the target, or "
            "someone placed their last shield."
        ),
        task="Place a **green** shield on the target, **C6**.",
        setup=game(BASIC, (0, lady("C4", "E")), (1, place("green", "W")), (0, place("green", "E"))),
        accepted=every_aim("green"),
        why="C5 was taken, so the line went on to C6, the first free box.",
        mistakes=(JOKER_WASTED,),
        rules=("end: a shield cannot be aimed at any free box",),
        marks=("C4", "C5", "C6"),
        seat=1,
    ),
    Lesson(
        key="joker",
        title="Advanced: a joker goes to the end",
        text=(
            "The advanced level is the default. There, a joker designates the last free box along its arrow, "
            "not the first: from C5 aimed west, past C4, C3 and C2, to C1."
        ),
        task="Place a **joker** on C5 and aim it **W**, so it designates **C1**.",
        setup=game(ADVANCED, (0, lady("C4", "E"))),
        accepted=(place("joker", "W"),),
        why="A joker's arrow runs to the last free box of its line: C1.",
        mistakes=(
            Mistake("A coloured shield designates the first free box: the task is a joker.", every_aim("green")),
            Mistake("That joker points another way: aim it W, along row C to C1."),
        ),
        rules=("advanced level (default", "a joker designates the last free box"),
        marks=("C5", "C1"),
        seat=1,
    ),
    Lesson(
        key="perimeter",
        title="Advanced: round the edge",
        text=(
            "In the advanced level an arrow on an edge box pointing off the board goes on from the opposite end "
            "of the same line (the small coloured triangles on the edge boxes show where)."
        ),
        task="Place an **orange** shield on the target **A5** and aim it **N**, off the top edge, to designate **F5**.",
        setup=game(ADVANCED, (0, lady("A4", "E"))),
        accepted=(place("orange", "N"),),
        why="Off the top of column 5, the line comes back from the bottom: F5.",
        mistakes=(Mistake("That arrow stays on the board: aim N, off the top edge of column 5."),),
        rules=("perimeter connections",),
        marks=("A5", "F5"),
        seat=1,
    ),
    Lesson(
        key="four_players",
        title="Four players",
        text=(
            "With four players, two pairs sit opposite and play in turn: you, an opponent, your partner, the "
            "other opponent. Each has 9 coloured shields and 1 joker, and each pair one extra joker (`/octagone "
            "joker` takes it while the challenge is open). Hands are hidden unless the game has open hands; "
            "**My shields** shows yours."
        ),
        task="Your pair's turn: place a **green** shield on the target **C5**.",
        setup=game(ADVANCED, (0, lady("C4", "E")), players=4),
        accepted=every_aim("green"),
        why="Your shields count for your pair: the pair with the fewest left wins.",
        mistakes=(
            Mistake("A joker fits any row, but your pair has few: the green shield fits row C.", every_aim("joker")),
        ),
        rules=("four players: two pairs", "/octagone joker: four players", "my shields button"),
        marks=("C5",),
        seat=1,
    ),
)

SERIES = Series(
    game="octagone",
    lessons=LESSONS,
    ready=(
        "In a real game **Place** opens the same menu, `/board` posts the board again and **Resign** "
        "(or `/octagone resign`) gives up. Challenge someone with `/octagone challenge opponent:@someone` "
        "(`rules:basic`, `partner:` and `opponent2:` for four), or play me on easy."
    ),
    ready_rules=("/octagone challenge opponent",),
)
