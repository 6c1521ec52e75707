"""Octa's lessons: deals the engine sets up from its ``deal`` option (the cards named, the rest
shuffled), then the steps of a turn, each played with Octa's own turn panel."""

from __future__ import annotations

from typing import Any

from bot.features.learn.lessons import Lesson, Mistake, Series, Setup

DEAL = {
    "first": 0,
    "hands": [["4H", "5H", "6H", "9C", "2S", "10D", "7C"], ["3S", "8D", "9S", "4C", "5D", "6S", "AC"]],
    "stock_top": ["8C"],  # the automatic draw
    "action_piles": [["JH"], ["KS"]],
    "action_stack_top": ["QS"],  # revealed at the start of the turn
}
# Seat 0 has an Octa (spades A-8) and 27 cards in runs: any card added to a run makes 28.
NEAR_WIN = {
    "first": 0,
    "runs": [
        [
            ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],
            ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"],
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
            ["2D", "3D", "4D"],
        ],
        [["4S", "5S", "6S"]],
    ],
    "hands": [["5D", "9D", "10C", "AH", "9S", "9C", "7D", "3C"], ["AD", "2H", "3S", "4D", "6H", "10D", "QH", "KS"]],
    "stock_top": ["10S"],
}
FLIP = (0, {"type": "flip", "pile": 0})
SKIP_ACTION = (0, {"type": "skip_action"})
LAY = (0, {"type": "lay_run", "cards": ["4H", "5H", "6H"], "token": True})
NO_EXCHANGE = (0, {"type": "pass_step"})


def turn(*actions: tuple[int, dict[str, Any]]) -> Setup:
    return Setup({"deal": DEAL}, 1, actions)


LESSONS = (
    Lesson(
        key="piles",
        title="Your turn starts: the action card",
        text=(
            "Octa is played with two decks; J, Q and K are action cards, and the pool is 8 face-up cards round "
            "the centre. Your turn goes step by step, and the **Turn panel** shows only what is legal now "
            "(**My hand** shows your hand at any time): you drew a card automatically, and now the revealed "
            "action card, the Queen of spades, goes on Pile 1 or Pile 2."
        ),
        task="Open the **Turn panel** and put the Queen on **Pile 1**, over the Jack of hearts (not the King).",
        setup=turn(),
        accepted=({"type": "flip", "pile": 0},),
        why="Now both visible action cards are spades, so you may use the Queen.",
        mistakes=(Mistake("On Pile 2 it hides the King of spades: no two visible action cards share a suit then."),),
        rules=(
            "two decks; j, q, k",
            "your turn, step by step",
            "you draw a card automatically",
            "turn panel (game message)",
            "my hand: your hand",
        ),
    ),
    Lesson(
        key="actions",
        title="Using an action card",
        text=(
            "When both visible action cards share a suit you may use the new one: a **Jack** turns a card of any "
            "run face down (you take the card), a **Queen** takes 2 same-suit pool cards, a **King** takes 2 "
            "cards from the stock or the discard pile. Using it is optional."
        ),
        task="Use the Queen: take two **spades** from the pool.",
        setup=turn(FLIP),
        accepted=({"type": "use_action", "action": "queen"},),
        why="Two spades from the pool are in your hand now.",
        mistakes=(
            Mistake("That skips the Queen: it is optional, but the task is to use it.", ({"type": "skip_action"},)),
        ),
        rules=("put the revealed action card on pile 1",),
    ),
    Lesson(
        key="runs",
        title="Laying a run",
        text=(
            "A run is 3 or more number cards of one suit in a row (the Ace is low or high, never both). Then "
            "comes at most one option: **A** lay a new run from your hand (with your token on it if the token is "
            "in the centre); **B** take an outer pool line of 3 when your token is on your run; **C** claim a "
            "pool run your token is on."
        ),
        task="Option A: lay the run **4♥ 5♥ 6♥** from your hand.",
        setup=turn(FLIP, SKIP_ACTION),
        accepted=({"type": "lay_run", "cards": ["4H", "5H", "6H"]},),
        why="Three hearts in a row: your first run on the table.",
        mistakes=(
            Mistake("That run is fine too, but the task is the hearts: 4♥ 5♥ 6♥.", ({"type": "lay_run"},)),
            Mistake("That skips the option: lay the hearts run.", ({"type": "pass_step"},)),
        ),
        rules=("a run is 3+ number cards", "at most one option"),
    ),
    Lesson(
        key="exchange",
        title="Exchanging with the pool",
        text=(
            "Optionally, exchange a hand card with a pool card that lies next to a card of the hand card's suit, "
            "one rank higher or lower: your 9♣ fits beside the pool's 8♣ or 10♣. If it makes a pool run, you "
            "may put your token on it to protect it."
        ),
        task="Exchange your **9♣** with a pool card.",
        setup=turn(FLIP, SKIP_ACTION, LAY),
        accepted=({"type": "exchange", "hand_card": "9C"},),
        why="The 9♣ went into the pool beside a club one rank away.",
        mistakes=(
            Mistake("That is another card of yours: the task is the 9♣.", ({"type": "exchange"},)),
            Mistake("That skips the exchange: the task is the 9♣.", ({"type": "pass_step"},)),
        ),
        rules=("optionally exchange a hand card",),
    ),
    Lesson(
        key="discard",
        title="Ending the turn",
        text=(
            "Last, discard one card: it is required with 8 cards or more (the hand limit is 8); with fewer you "
            "may instead end the turn. A 2♠ alone helps no run of yours."
        ),
        task="Discard the **2♠**.",
        setup=turn(FLIP, SKIP_ACTION, LAY, NO_EXCHANGE),
        accepted=({"type": "discard", "card": "2S"},),
        why="Your turn is over; the 2♠ is on the discard pile.",
        mistakes=(
            Mistake(
                "With fewer than 8 cards that is allowed, but the task is to discard the 2♠.", ({"type": "end_turn"},)
            ),
            Mistake("That is another card: the task is the 2♠."),
        ),
        rules=("discard one card",),
    ),
    Lesson(
        key="octa",
        title="Winning: an Octa and 28 cards",
        text=(
            "You win as the first with an **Octa**, a run of 8 or more cards, and at least 28 cards in your runs. "
            "Any time in your turn you may add cards to your own runs, or replace a Jack's face-down card (not in "
            "the turn the Jack turned it). If the stock runs out twice, the most cards on the table wins."
        ),
        task="You have an Octa and 27 cards on the table: add a card to one of your runs, and win.",
        setup=Setup({"deal": NEAR_WIN}, 1),
        accepted=({"type": "add_to_run"},),
        why="28 cards or more in your runs, with an Octa among them: you win.",
        mistakes=(
            Mistake(
                "That goes on with the turn's steps: you may add cards any time in your turn, and one more wins now.",
                ({"type": "flip"},),
            ),
        ),
        rules=(
            "goal: be the first with an octa",
            "any time in your turn you may add cards",
            "if the stock runs out twice",
        ),
    ),
)

SERIES = Series(
    game="octa",
    lessons=LESSONS,
    ready=(
        "In a real game the **Turn panel** takes you through each turn, `/board` posts the table again and "
        "**Resign** (or `/octa resign`) gives up. Challenge someone with `/octa challenge opponent:@someone`, "
        "or play me on easy."
    ),
    ready_rules=("/octa challenge opponent", "/board posts the table again"),
)
