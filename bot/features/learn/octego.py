"""Octego's lessons: one per rule, on positions the engine builds from its ``position`` option,
each played with Octego's own Move menu."""

from __future__ import annotations

from bot.features.learn.lessons import Lesson, Mistake, Series, Setup


def move(path: str) -> dict[str, str]:
    """A move as the Move menu plays it (its full path, ``x`` before a captured square)."""
    return {"type": "move", "path": path}


def position(pieces: str) -> Setup:
    """Yours / your opponent's pieces (kind + square), you to move."""
    return Setup({"position": pieces, "to_move": 0})


OTHER_PIECE = "That moved another piece: pick the one the task names."

LESSONS = (
    Lesson(
        key="board",
        title="The board and your pieces",
        text=(
            "Octego is played on 8 × 8 spaces, columns a–h and rows 1–8: your home row is 1, your "
            "opponent's is 8. Each side has two 1s, two 2s, two 3s and two Octegos (O), set up "
            "3 2 1 O O 1 2 3 from its own left. On your turn you move one piece: you must move if you can."
        ),
        task="Press **Move**, pick the **1 on c1** and move it one diagonal step forward.",
        setup=Setup(),
        accepted=(move("c1-b2"), move("c1-d2")),
        why="Every turn is one move of one piece, and you must move if you can.",
        mistakes=(Mistake(OTHER_PIECE),),
        rules=("8 × 8 spaces", "each player has eight pieces", "you must move if you can", "move button"),
        marks=("c1",),
    ),
    Lesson(
        key="steps",
        title="Exactly that many steps",
        text=(
            "A 1, 2 or 3 moves exactly that many single diagonal steps (an Octego: one). It may turn "
            "between steps, but it never visits a space twice and never jumps over a piece, so the "
            "piece on e3 blocks every way through it. Diagonal steps keep a piece on its grid of colour."
        ),
        task="Move the **3 on c1** to **d4**. Two paths lead there: the menu asks which.",
        setup=position("3c1 Od1 Oe1 / Od8 Oe8 1e3"),
        accepted=(move("c1-d2-c3-d4"), move("c1-b2-c3-d4")),
        why="Three diagonal steps, turning on the way; the way through e3 was blocked.",
        mistakes=(
            Mistake(
                "That 3 moved three steps, but it ended elsewhere: the task is to end on d4.",
                (move("c1-d2-c3-b4"), move("c1-b2-c3-b4"), move("c1-b2-a3-b4"), move("c1-d2-c3-b2")),
            ),
            Mistake(OTHER_PIECE),
        ),
        rules=("moves exactly that many single diagonal steps", "two overlaid grids"),
        marks=("c1", "d4", "e3"),
    ),
    Lesson(
        key="capture",
        title="Capturing",
        text=(
            "You capture by ending your move on an opponent's piece: it leaves the board. "
            "The squares you pass through must be empty; only the last one may hold a piece."
        ),
        task="Capture the opponent's **2 on e5** with your **2 on c3**.",
        setup=position("2c3 Od1 Oe1 / 2e5 Od8 Oe8"),
        accepted=(move("c3-d4xe5"),),
        why="Your 2 ended its two steps on e5, so it captured the piece there.",
        mistakes=(
            Mistake("That move captures nothing: end the move on the piece you take.", (move("c3-d4-c5"),)),
            Mistake("That captures nothing: the 2 on c3 must end its move on e5."),
        ),
        rules=("capture by ending on an opponent's piece",),
        marks=("c3", "e5"),
    ),
    Lesson(
        key="octegos",
        title="Octegos never capture",
        text=(
            "An Octego moves one diagonal step, forward or back, and never captures: a space with "
            "any piece on it is closed to it. Keep your Octegos safe, and bring one forward."
        ),
        task="Your Octego on **d4** cannot take the 1 on e5: step it forward to **c5** instead.",
        setup=position("Od4 Oe1 / 1e5 Od8 Oe8"),
        accepted=(move("d4-c5"),),
        why="Octegos step one space and never capture; c5 brings it a row closer to row 8.",
        mistakes=(
            Mistake("That steps your Octego back, away from row 8: go forward to c5.", (move("d4-c3"), move("d4-e3"))),
            Mistake(OTHER_PIECE),
        ),
        rules=("octegos never capture",),
        marks=("d4", "e5", "c5"),
    ),
    Lesson(
        key="grid_side",
        title="Changing grids on a side edge",
        text=(
            "A piece (not an Octego) that starts its turn on column a or h may instead move one space "
            "straight forward or backward, onto the other grid. The space must be empty, and that is "
            "the whole turn."
        ),
        task="Change grids with the **2 on a3**: one space straight forward to **a4**, or back to **a2**.",
        setup=position("2a3 Od1 Oe1 / Od8 Oe8"),
        accepted=(move("a3-a4"), move("a3-a2")),
        why="One straight step from the side edge: your 2 is on the other grid now.",
        mistakes=(
            Mistake(
                "That is an ordinary diagonal move: a grid change is one straight step along column a.",
                (move("a3-b4-c5"), move("a3-b4-a5"), move("a3-b4-c3"), move("a3-b2-c3"), move("a3-b2-a1")),
            ),
            Mistake(OTHER_PIECE),
        ),
        rules=("changing grids (not octegos)",),
        marks=("a3",),
    ),
    Lesson(
        key="grid_home",
        title="Changing grids on a home row",
        text=(
            "On a home row (1 or 8) a piece may change grids by one space straight left or right. "
            "A grid change never captures: d1 is taken, so only b1 is open."
        ),
        task="Change grids along your home row with the **1 on c1**.",
        setup=position("1c1 Oe1 Of1 / 1d1 Od8 Oe8"),
        accepted=(move("c1-b1"),),
        why="One step along the home row to an empty space: a grid change.",
        mistakes=(
            Mistake(
                "That is an ordinary diagonal step: a grid change goes straight along row 1.",
                (move("c1-d2"), move("c1-b2")),
            ),
            Mistake(OTHER_PIECE),
        ),
        rules=("on a home row (1 or 8), one space straight left or right",),
        marks=("c1", "b1", "d1"),
    ),
    Lesson(
        key="far_side",
        title="Winning: the far side",
        text=(
            "You win the moment one of your Octegos reaches the far side, your opponent's home row (8). "
            "You also win if the player to move has no legal move: they lose."
        ),
        task="Win the game: bring your **Octego on c7** onto row 8.",
        setup=position("Oc7 Oe1 2g3 / Of8 Og8 1e6"),
        accepted=(move("c7-b8"), move("c7-d8")),
        why="An Octego on the far side wins at once.",
        mistakes=(
            Mistake("That steps your Octego back: one step forward reaches row 8.", (move("c7-b6"), move("c7-d6"))),
            Mistake("That does not win yet: an Octego on row 8 does."),
        ),
        rules=("first to bring one of your octego pieces to the far side", "end: an octego reaches the far side"),
        marks=("c7",),
    ),
    Lesson(
        key="both_octegos",
        title="Winning: both Octegos captured",
        text=(
            "You also win by capturing both of your opponent's Octegos; this one is the last. "
            "A game is drawn when the same position comes back a third time with the same player "
            "to move, or after 100 moves without a capture."
        ),
        task="Capture your opponent's last **Octego on f6** with your **1 on g5**.",
        setup=position("1g5 Od1 Oe1 / Of6 1a8"),
        accepted=(move("g5xf6"),),
        why="Both of your opponent's Octegos are gone: you win.",
        mistakes=(Mistake("That leaves the Octego on f6 on the board: end your 1's step on it."),),
        rules=("capture both of your opponent's octegos",),
        marks=("g5", "f6"),
    ),
    Lesson(
        key="notation",
        title="Writing a move",
        text=(
            "A move is written as its path, `c1-d2-e3`, with `x` before a captured square (`c1-d2xe3`); "
            "a grid change is `a3-a4`, and start and end (`c1-e3`) are enough when one path joins them. "
            "In a game you may type it too: `/octego move path:c1-d2xe3`, with your legal moves suggested."
        ),
        task="Play the move written **c1-d2xe3**.",
        setup=position("2c1 Od1 Oe1 / 1e3 Od8 Oe8"),
        accepted=(move("c1-d2xe3"),),
        why="c1, then d2, then a capture on e3: the path, in order.",
        mistakes=(
            Mistake("That is c1-d2-c3: from d2 the path turns to e3, where the x is.", (move("c1-d2-c3"),)),
            Mistake("That is another move: read the path square by square, c1 then d2 then x e3."),
        ),
        rules=("a move is its path", "/octego move path:c1-d2"),
        marks=("c1", "e3"),
    ),
)

SERIES = Series(
    game="octego",
    lessons=LESSONS,
    ready=(
        "In a real game **Move** opens the same menu, `/board` posts the board again, **Resign** "
        "(or `/octego resign`) gives up and **Rematch** plays again. Challenge someone with "
        "`/octego challenge opponent:@someone`, or play me on easy."
    ),
    ready_rules=("/octego challenge opponent", "/board posts the board again"),
)
