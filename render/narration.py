"""Words for the events every engine shares (the kit's ``resign`` and ``end``), so that all five
games tell a resignation and a result alike; each game's narrator tells its own events first."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Event, Outcome


def shared_sentence(event: Event, names: Sequence[str]) -> str:
    """A kit event in words ("" for any other event)."""
    if event.kind == "resign":
        return f"{names[event.seat]} resigned."
    if event.kind == "forfeit":
        return f"{names[event.seat]} ran out of time."
    if event.kind == "end":
        reason = event.data["reason"]
        if event.data["draw"]:
            return f"The game ends in a draw ({reason})."
        return with_reason(f"{' and '.join(names[seat] for seat in event.data['winners'])} won", reason) + "."
    return ""


def outcome_phrase(outcome: Outcome, names: Sequence[str]) -> str:
    """How a finished game ended, as a phrase: "Ada won (resignation)", "a draw (threefold repetition)"."""
    if outcome.is_draw:
        return f"a draw ({outcome.reason})"
    return with_reason(f"{' and '.join(names[seat] for seat in outcome.winners)} won", outcome.reason)


# The kit's reason for a game lost on time (engines/base.py, ``play_forfeit``).
LOSS_ON_TIME = "time forfeit"


def with_reason(result: str, reason: str, *, colon: bool = False) -> str:
    """A result and why, saying what happened: "Bo won (resignation)", "Bo won: resignation"
    with ``colon``; a game lost on time is won "on time" ("Bo won on time"), never "(time forfeit)"."""
    if reason == LOSS_ON_TIME:
        return f"{result} on time"
    return f"{result}: {reason}" if colon else f"{result} ({reason})"


def with_article(word: str) -> str:
    """``word`` after its indefinite article: "a green", "an orange", "an Octiles"."""
    vowel = word[:1].lower() in ("a", "e", "i", "o", "u")  # ("" is in every string, not in this tuple)
    return f"{'an' if vowel else 'a'} {word}"


# How a game that ended outside its rules ends, as a final picture's header (the bot passes the
# result as ``ending=``): who acted and, when someone won, who.
ENDINGS = {
    "stopped": "Stopped by {actor}",
    "resigned": "{winners} won: {actor} resigned",
    "out_of_time": "{winners} won: {actor} ran out of time",
    "expired": "Expired: {actor} did not move",
}


def final_header(kind: str, actor: str, winners: Sequence[str] = ()) -> str:
    """A final picture's header, plain text: "Stopped by Ada", "Bo won: Ada ran out of time"."""
    if "{winners}" in ENDINGS[kind] and not winners:
        raise ValueError(f"an ending of kind {kind!r} names its winners")
    return ENDINGS[kind].format(actor=actor, winners=" and ".join(winners))


def outcome_header(outcome: Outcome, names: Sequence[str]) -> str:
    """An engine outcome as a final picture's header: "Bo won: resignation", "Draw: threefold repetition"."""
    if outcome.is_draw:
        return f"Draw: {outcome.reason}"
    return with_reason(f"{' and '.join(names[seat] for seat in outcome.winners)} won", outcome.reason, colon=True)
