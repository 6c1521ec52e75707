"""Test-only deals for Octa (bot and engine tests reach a decisive position quickly).

``ENGINE.new_game(2, {"deal": {...}}, seed)`` accepts these keys, every one optional; the
cards not named are shuffled and dealt as usual, so all 104 cards stay accounted for:

- ``hands``: ``[[codes of seat 0], [codes of seat 1]]`` (both or neither); the automatic draw
  of the first turn still adds one card from the stock;
- ``pool``: 8 codes (or None for an empty position) for positions 1..8;
- ``runs``: ``[[run, ...], [run, ...]]`` each run a list of codes;
- ``stock_top``: codes drawn first, in order (the first one is the first turn's draw);
- ``discard``: codes bottom to top;
- ``action_piles``: ``[[codes], [codes]]`` bottom to top; ``action_stack_top``: action cards
  revealed first, in order;
- ``first``: the seat that starts (else random).
"""

from __future__ import annotations

from typing import Any


def near_win_options() -> dict[str, Any]:
    """Seat 0 starts with 27 table cards including an Octa; adding 5♣ to its club run wins.

    Seat 0 plays: ``flip`` (pile 0), then ``{"type": "add_to_run", "run": 3, "cards": ["5C"]}``.
    """
    return {
        "deal": {
            "first": 0,
            "runs": [
                [
                    ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"],
                    ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"],
                    ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
                    ["2C", "3C", "4C"],
                ],
                [["6C", "7C", "8C"]],
            ],
            "hands": [
                ["5C", "9C", "10D", "AS", "9H", "9D", "7C", "3H"],
                ["AD", "2H", "3S", "4D", "6H", "10C", "QH", "KS"],
            ],
            "stock_top": ["10H"],
            "action_piles": [["JH"], ["QS"]],
            "action_stack_top": ["KC"],
        }
    }
