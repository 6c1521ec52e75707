"""Every member-facing text the bot sends in SimCord, scanned for plurals left to the reader
("player(s)", "match(es)", "part(ies)") and brackets inside brackets: message texts, embeds, buttons, menus, forms,
autocomplete choices and the pictures' alt texts. tests/bot/conftest.py installs it for the whole
suite and fails a test whose bot sent one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from simcord.backend.models import Interaction
from simcord.backend.state import Backend

from render.wording import leftover_plurals, nested_brackets

# Keys whose strings no member reads (ids, addresses, file names).
MACHINE_KEYS = frozenset({"custom_id", "url", "proxy_url", "filename", "id", "content_type", "media"})


def member_strings(value: Any) -> Iterator[str]:
    """Every string a member reads in a message part (a dict or list of components, embeds,
    attachments or choices), leaving out ids and addresses."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in MACHINE_KEYS:
                yield from member_strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from member_strings(item)


class LeftoverScan:
    """Collects every leftover plural the bot sends, with the text it was in."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def check(self, *parts: Any) -> None:
        for text in member_strings(list(parts)):
            if leftover_plurals(text) or nested_brackets(text):
                self.found.append(text)

    def take(self) -> list[str]:
        found, self.found = self.found, []
        return found

    def install(self) -> None:
        """Wrap SimCord's message creation and edit, forms and autocomplete answers (once per process)."""
        scan = self
        commit_message, edit_message = Backend.commit_message, Backend.edit_message
        show_modal, complete_autocomplete = Interaction.show_modal, Interaction.complete_autocomplete

        def scanned_commit(backend, message, *args, **kwargs):
            committed = commit_message(backend, message, *args, **kwargs)
            scan.check_message(backend, committed)
            return committed

        def scanned_edit(backend, *args, **kwargs):
            edited = edit_message(backend, *args, **kwargs)
            scan.check_message(backend, edited)
            return edited

        def scanned_modal(interaction, modal):
            scan.check(modal)
            return show_modal(interaction, modal)

        def scanned_choices(interaction, choices):
            scan.check(choices)
            return complete_autocomplete(interaction, choices)

        Backend.commit_message, Backend.edit_message = scanned_commit, scanned_edit
        Interaction.show_modal, Interaction.complete_autocomplete = scanned_modal, scanned_choices

    def check_message(self, backend: Backend, message: Any) -> None:
        author = backend.users.get(message.author_id)
        if author is not None and author.bot:  # what members type is theirs, not the bot's
            self.check(message.content, message.embeds, message.components, message.attachments)


SCAN = LeftoverScan()
