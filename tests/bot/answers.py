"""The private answer to a click, wherever Discord keeps it.

A refusal and a step of an open menu are the click's original response. A menu opened from the
game message's button is not: that click is answered by a deferred update of the game message
(its original response is the game message itself, whose edit after the move goes through the
click's token, uncounted: issue 41), and the menu is its private follow-up."""

from __future__ import annotations

from typing import Any

from bot.dev.world import private_messages


def private_answer(result: Any) -> Any:
    """The one private message an interaction was answered with (its original response or a follow-up)."""
    [answer] = private_messages(result)
    return answer


def opened_menu(result: Any, game: Any) -> Any:
    """The private menu a click on the game message's button opened: the click itself updated the
    game message ``game`` (a deferred update, which changes nothing there) and the menu followed."""
    original = result.response
    assert original is not None
    assert original.id == game.id, "the click's original response is the game message"
    assert not original.ephemeral
    [menu] = result.followups
    assert menu.ephemeral
    return menu
