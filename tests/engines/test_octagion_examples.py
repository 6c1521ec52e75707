"""Every variant the bot, its rules and the README show as an example is one a player could
really type: cards of the deck, eight different numbers, accepted by the parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.octagion.cards import DECK_SET
from engines.octagion.rules import parse_variant

ROOT = Path(__file__).resolve().parents[2]
SHOWN_TO_PLAYERS = [
    ROOT / "README.md",
    *sorted((ROOT / "bot").rglob("*.py")),
    *sorted((ROOT / "bot" / "games" / "rules").glob("*.md")),
    *sorted((ROOT / "engines" / "octagion").glob("*.py")),
]
FULL_VARIANT = re.compile(r"\b(?:[A-Z][1-8] ?){7}[A-Z][1-8]\b")


def examples() -> list[tuple[str, str]]:
    found = [(path.name, match) for path in SHOWN_TO_PLAYERS for match in FULL_VARIANT.findall(path.read_text())]
    assert found, "the help texts show at least one full variant"
    return found


@pytest.mark.parametrize(("where", "example"), examples())
def test_every_example_variant_is_playable(where, example):
    cards = re.findall(r"[A-Z][1-8]", example)
    assert [card for card in cards if card not in DECK_SET] == [], f"{where}: cards not in the deck"
    assert len({card[1] for card in cards}) == 8, f"{where}: a variant uses eight different numbers"
    word = "".join(card[0] for card in cards)
    assert parse_variant(example, word) == cards
