"""``python -m bot invite``: the OAuth2 URL that adds the bot to a server with exactly the
permissions it needs (README's permission table lists the same, with what each is for).

The client id is the application's id: ``DISCORD_CLIENT_ID``, or else read from the bot token,
whose first part is the application id in base64 (the token itself is never printed).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass

import discord

SCOPES = ("bot", "applications.commands")


@dataclass(frozen=True)
class Permission:
    flag: str  # the discord.Permissions flag
    name: str  # as Discord's server settings show it
    purpose: str  # what the bot uses it for


PERMISSIONS: tuple[Permission, ...] = (
    Permission("view_channel", "View Channels", "see the channels where members play, to post and edit game messages"),
    Permission("send_messages", "Send Messages", "post challenges, lobbies, game boards and results"),
    Permission("send_messages_in_threads", "Send Messages in Threads", "play each game in its own thread"),
    Permission("create_public_threads", "Create Public Threads", "start a game's thread from its challenge message"),
    Permission("manage_threads", "Manage Threads", "archive the game threads it started once their game is over"),
    Permission("embed_links", "Embed Links", "/rules as an embed, and the previews of links to games (/history)"),
    Permission("attach_files", "Attach Files", "the game pictures, replays and game records"),
    Permission(
        "read_message_history",
        "Read Message History",
        "read its earlier messages: game messages it edits, challenges a thread starts from",
    ),
)


def permissions() -> discord.Permissions:
    return discord.Permissions(**{permission.flag: True for permission in PERMISSIONS})


class NoClientId(Exception):
    """Neither DISCORD_CLIENT_ID nor a token to read the application id from."""


def client_id_from_token(token: str) -> int:
    """The application id a bot token starts with (base64 of its digits, without padding)."""
    first = token.strip().split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), altchars=b"-_", validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        decoded = ""
    if not decoded.isdigit():
        raise NoClientId("the token's first part is not an application id: set DISCORD_CLIENT_ID instead")
    return int(decoded)


def client_id(environ: Mapping[str, str], token: str | None) -> int:
    given = environ.get("DISCORD_CLIENT_ID", "").strip()
    if given:
        if not given.isdigit():
            raise NoClientId(f"DISCORD_CLIENT_ID must be the application id (digits), not {given!r}")
        return int(given)
    if token:
        return client_id_from_token(token)
    raise NoClientId(
        "set DISCORD_CLIENT_ID (the Application ID on the developer portal's General Information page) or DISCORD_TOKEN"
    )


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(application_id, permissions=permissions(), scopes=SCOPES)


def invite_text(application_id: int) -> str:
    """What ``python -m bot invite`` prints: the URL, then the permissions it asks for."""
    value = permissions().value
    lines = [invite_url(application_id), "", f"It asks for these permissions (integer {value}):"]
    width = max(len(permission.name) for permission in PERMISSIONS)
    lines += [f"  {permission.name:<{width}}  {permission.purpose}" for permission in PERMISSIONS]
    return "\n".join(lines)
