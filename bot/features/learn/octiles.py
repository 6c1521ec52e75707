"""Octiles' lessons: positions the engine builds from a seeded new game and a few actions, each
played with Octiles' own menu (Set up, Move, Place marker)."""

from __future__ import annotations

from typing import Any

from bot.features.learn.lessons import Lesson, Mistake, Series, Setup

SEED = 3  # Gold is seat 1
GOLD, TEAL = 1, 0
RUNNERS = (GOLD, {"type": "place_runners", "gold": "C3", "teal": "D4"})
FIRST_CIRCLE = (TEAL, {"type": "first_circle", "circle": "A1"})
CHANGED = (GOLD, {"type": "replace", "space": "c1", "orientation": 2})
COLLECTS = {"type": "replace_move", "space": "a3", "orientation": 1, "to": "A5"}


def after(*actions: tuple[int, dict[str, Any]]) -> Setup:
    return Setup({}, SEED, actions)


NOT_OPTION = "That is another option of the turn: pick the option the task names."

LESSONS = (
    Lesson(
        key="set_up",
        title="The board and the set-up",
        text=(
            "The board is 17 octagonal tiles (spaces a2…e4) with 16 square stops between them and 20 circles "
            "round the rim; the 18th tile is the spare. Colours are drawn at random: Gold plays first and puts "
            "both runners on two of the central stops C3, C4, D3 and D4."
        ),
        task="You are Gold: press **Set up** and put your runner on **C3**, then Teal's on **D4**.",
        setup=after(),
        accepted=({"type": "place_runners", "gold": "C3", "teal": "D4"},),
        why="Both runners stand on central stops; Teal now places the prizes.",
        mistakes=(Mistake("Those are other stops: the task is Gold on C3 and Teal on D4."),),
        rules=("17 octagonal tiles", "set-up: colours are drawn", "set up / move / place marker buttons"),
        marks=("C3", "D4"),
        seat=GOLD,
    ),
    Lesson(
        key="prizes",
        title="Your prizes",
        text=(
            "You win by collecting all five of your prizes from the circles round the rim. Teal picks the "
            "first circle: prizes go on every other circle, plum (Teal's) and orange (Gold's) in turn."
        ),
        task="You are Teal: pick **A1** as the first circle.",
        setup=after(RUNNERS),
        accepted=({"type": "first_circle", "circle": "A1"},),
        why="A1 and every other circle from it hold the prizes, plum and orange in turn.",
        mistakes=(Mistake("That is another circle: the task is A1."),),
        rules=("goal: be the first to collect all five",),
        marks=("A1",),
        seat=TEAL,
    ),
    Lesson(
        key="move",
        title="Moving your runner",
        text=(
            "A runner leaves by a tile edge touching its stop, follows the path across the tiles and stops at "
            "the first stop or circle it reaches. It may end on a free stop or on its own prize, never on an "
            "empty circle or the opponent's prize, runner or marker. A turn is exactly one of three options; "
            "option 2 is a plain move (`/octiles move to:B3` types it)."
        ),
        task="Press **Move**, choose option 2 (move) and take your runner to **B3**.",
        setup=after(RUNNERS, FIRST_CIRCLE),
        accepted=({"type": "move", "to": "B3"},),
        why="Your runner followed the path to the first stop on it, B3.",
        mistakes=(
            Mistake("That move ends elsewhere: the task is B3.", ({"type": "move"},)),
            Mistake(NOT_OPTION),
        ),
        rules=(
            "moving: a runner leaves by a tile edge",
            "a turn is exactly one option",
            "move your runner.",
            "/octiles move to:",
        ),
        marks=("C3", "B3"),
        seat=GOLD,
    ),
    Lesson(
        key="replace_move",
        title="Replace and move",
        text=(
            "Option 1: put the spare tile on a space, in any of its 8 orientations (each a 45° turn), then move "
            "across the new tile. The tile you took out becomes the spare."
        ),
        task="Press **Move** and choose option 1: put the spare anywhere and move across it.",
        setup=after(RUNNERS, FIRST_CIRCLE),
        accepted=({"type": "replace_move"},),
        why="A new tile opened a new path for your runner.",
        mistakes=(Mistake(NOT_OPTION),),
        rules=("replace and move: put the spare",),
        seat=GOLD,
    ),
    Lesson(
        key="change",
        title="Changing a tile",
        text=(
            "Option 3: change a tile without moving, by rotating it or replacing it with the spare "
            "(`/octiles rotate tile:c3 orientation:2`, `/octiles replace tile:c3 orientation:2`). Not two turns "
            "in a row, and not the tile your opponent just changed this way."
        ),
        task="Press **Move** and choose option 3: rotate a tile, or replace one with the spare.",
        setup=after(RUNNERS, FIRST_CIRCLE),
        accepted=({"type": "rotate"}, {"type": "replace"}),
        why="The paths changed; your runner waits for a better one.",
        mistakes=(Mistake(NOT_OPTION),),
        rules=("change a tile (rotate it", "/octiles rotate tile", "/octiles replace tile"),
        seat=GOLD,
    ),
    Lesson(
        key="collect",
        title="Collecting a prize",
        text=(
            "Gold changed c1. Put the spare on **a3** in orientation 1: a path then runs from your runner to "
            "A5, which holds one of your plum prizes. Ending there collects it."
        ),
        task="Collect the prize on **A5**: option 1, the spare on a3, orientation 1.",
        setup=after(RUNNERS, FIRST_CIRCLE, CHANGED),
        accepted=(COLLECTS,),
        why="Your runner ended on a circle with your own prize: one of five collected.",
        mistakes=(Mistake("That collects nothing: the spare on a3, orientation 1, opens the way to A5."),),
        rules=("it may end on a free stop or on a circle holding its own prize",),
        marks=("a3", "A5"),
        seat=TEAL,
    ),
    Lesson(
        key="marker",
        title="Decoy markers",
        text=(
            "After a prize is collected, the other player puts the collector's marker on a free stop: the "
            "collector must reach it before collecting again, and then places yours. With the optional "
            "**Scramble** rule, once per game a turn may end by shuffling four tiles. No option at all: you "
            "pass; two passes in a row, a third repetition or 100 turns without a prize are a draw."
        ),
        task="Teal collected a prize: press **Place marker** and put Teal's marker on **B2**.",
        setup=after(RUNNERS, FIRST_CIRCLE, CHANGED, (TEAL, COLLECTS)),
        accepted=({"type": "place_marker", "stop": "B2"},),
        why="Teal must now reach B2 before collecting another prize.",
        mistakes=(Mistake("That is another stop: the task is B2.", ({"type": "place_marker"},)),),
        rules=("decoy markers", "scramble: takes four", "/octiles marker stop"),
        marks=("B2",),
        seat=GOLD,
    ),
)

SERIES = Series(
    game="octiles",
    lessons=LESSONS,
    ready=(
        "In a real game **Move** opens the same menu, `/board` posts the board again and **Resign** "
        "(or `/octiles resign`) gives up. Challenge someone with `/octiles challenge opponent:@someone` "
        "(`scramble:True` for the scramble rule), or play me on easy."
    ),
    ready_rules=("/octiles challenge opponent", "/board (the board again), /octiles resign"),
)
