"""Words that depend on a count, for every text a member reads: "1 player", "3 players", never
"player(s)". Pure and shared: render/ and bot/ both import it."""

from __future__ import annotations

import re

# A plural left to the reader: "player(s)", "match(es)", "part(ies)".
LEFTOVER_PLURAL = re.compile(r"[A-Za-z]+\((?:s|es|ies)\)")


def plural_form(word: str) -> str:
    """The regular English plural of ``word``: "player" -> "players", "match" -> "matches",
    "penalty" -> "penalties". Irregular words pass their plural to :func:`plural`."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def noun(count: int, word: str, many: str | None = None) -> str:
    """``word`` as ``count`` of it takes it, without the number: noun(1, "card") -> "card",
    noun(2, "card") -> "cards" (``many`` for an irregular plural)."""
    return word if count == 1 else (many or plural_form(word))


def plural(count: int, word: str, many: str | None = None) -> str:
    """A count and its noun: plural(1, "player") -> "1 player", plural(3, "player") -> "3 players",
    plural(0, "move") -> "0 moves"."""
    return f"{count} {noun(count, word, many)}"


def leftover_plurals(text: str) -> list[str]:
    """Every "(s)"-style plural left in ``text``, with the word it follows ("player(s)")."""
    return LEFTOVER_PLURAL.findall(text)


def nested_brackets(text: str) -> list[str]:
    """Every bracket opened inside another on one line ("8 of 8 placed (1 Treatment Card)"
    within brackets): a reader loses which one closes where, so a sentence says it with one pair."""
    found = []
    for line in text.splitlines():
        line = re.sub(r"`[^`]*`", lambda code: "_" * len(code.group()), line)  # quoted labels do not count
        depth, start = 0, 0
        for at, char in enumerate(line):
            if char == "(":
                depth += 1
                if depth == 1:
                    start = at
                elif depth == 2:
                    found.append(line[start : line.find(")", at) + 1 or len(line)])
            elif char == ")" and depth:
                depth -= 1
    return found
