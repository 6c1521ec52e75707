"""``python -m bot invite``: the URL's permission integer decodes to exactly the permissions
README's table lists, which include every one the bot's code needs; the client id comes from
DISCORD_CLIENT_ID or from the token, which is never printed."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.features import invite

REPOSITORY = Path(__file__).resolve().parents[1]
# Discord's names for permissions are discord.py's flags in words, except this one.
FLAG_NAMES = {"View Channels": "view_channel"}
# What the bot's code does in a server: see channels, post and edit messages with pictures and
# embeds, read its earlier messages, and play each game in a thread it starts, posts in and archives.
NEEDED = {
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
    "create_public_threads",
    "send_messages_in_threads",
    "manage_threads",
}
APPLICATION_ID = 1234567890123456789


def fake_token(application_id: int) -> str:
    """A token shaped like Discord's (not a real one): the application id in base64, a time, a secret."""
    first = base64.b64encode(str(application_id).encode()).decode().rstrip("=")
    return f"{first}.Gq4Lx1.{'s3cr3t-part-of-a-fake-token-' * 2}"


def readme_permissions() -> list[str]:
    """The names in README's permission table (the one headed "permission | what the bot uses it for")."""
    text = (REPOSITORY / "README.md").read_text()
    table = re.search(r"^\| permission \| what the bot uses it for \|\n\|[-|]+\|\n((?:\|.*\|\n)+)", text, re.M)
    assert table, "README has no permission table"
    return [row.split("|")[1].strip() for row in table.group(1).splitlines()]


def flag(name: str) -> str:
    found = FLAG_NAMES.get(name, name.lower().replace(" ", "_"))
    assert found in discord.Permissions.VALID_FLAGS, f"README's {name!r} is not a Discord permission"
    return found


def run_invite(**environment: str) -> subprocess.CompletedProcess:
    # Set, even empty, so that a developer's .env (which never overrides the environment) plays no part.
    env = {**os.environ, "DISCORD_TOKEN": "", "DISCORD_CLIENT_ID": "", **environment}
    return subprocess.run(
        [sys.executable, "-m", "bot", "invite"], cwd=REPOSITORY, env=env, capture_output=True, text=True, timeout=60
    )


def url_of(output: str) -> tuple[int, set[str], int]:
    """The printed URL's client id, scopes and permission integer."""
    url = next(line for line in output.splitlines() if line.startswith("https://"))
    parts = urlsplit(url)
    assert (parts.netloc, parts.path) == ("discord.com", "/oauth2/authorize")
    query = parse_qs(parts.query)
    return int(query["client_id"][0]), set(query["scope"][0].split()), int(query["permissions"][0])


def test_the_invite_asks_for_exactly_the_permissions_readme_lists():
    result = run_invite(DISCORD_CLIENT_ID=str(APPLICATION_ID))
    assert result.returncode == 0, result.stderr
    client_id, scopes, value = url_of(result.stdout)
    assert (client_id, scopes) == (APPLICATION_ID, {"bot", "applications.commands"})
    listed = readme_permissions()
    bits = [discord.Permissions(**{flag(name): True}).value for name in listed]
    assert len(set(bits)) == len(listed), "README lists a permission twice"
    assert value == sum(bits)  # every bit of the integer is one README lists, and each is there
    assert f"permission integer {value}" in " ".join((REPOSITORY / "README.md").read_text().split())
    granted = discord.Permissions(value)
    assert {name for name in NEEDED if not getattr(granted, name)} == set()
    assert f"(integer {value})" in result.stdout
    for name in listed:  # the command explains each too
        assert re.search(rf"^  {re.escape(name)}  ", result.stdout, re.M)


def test_the_application_id_comes_from_the_token_which_is_never_printed():
    token = fake_token(APPLICATION_ID)
    result = run_invite(DISCORD_TOKEN=token)
    assert result.returncode == 0, result.stderr
    assert url_of(result.stdout)[0] == APPLICATION_ID
    for part in token.split("."):
        assert part not in result.stdout + result.stderr
    # DISCORD_CLIENT_ID, when set, wins.
    assert url_of(run_invite(DISCORD_TOKEN=token, DISCORD_CLIENT_ID="42").stdout)[0] == 42


def test_without_an_id_or_a_token_it_says_what_to_set():
    result = run_invite()
    assert (result.returncode, result.stdout) == (1, "")
    assert "set DISCORD_CLIENT_ID" in result.stderr


@pytest.mark.parametrize("token", ["not-base64!.a.b", f"{base64.b64encode(b'hello').decode()}.a.b", ""])
def test_a_token_that_holds_no_application_id_is_refused(token):
    with pytest.raises(invite.NoClientId):
        invite.client_id({}, token)
    with pytest.raises(invite.NoClientId, match="digits"):
        invite.client_id({"DISCORD_CLIENT_ID": "my-bot"}, None)
