"""Settings: every value that is not allowed is refused at start with one sentence naming the
setting and what it allows; README's settings table and .env.example name exactly the settings
the class reads, with its defaults."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.core.settings import SettingError, Settings, read, variables

ROOT = Path(__file__).resolve().parent.parent
EXIT_BAD_SETTING = 78  # README: "Exit statuses"


@pytest.fixture
def environment(monkeypatch, tmp_path):
    """No setting from the machine's environment or a .env file: only what the test sets."""
    for _, variable, _ in variables():
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("SHARD_COUNT", "abc", "a whole number of 1 or more"),
        ("SHARD_COUNT", "0", "a whole number of 1 or more"),
        ("DATABASE_POOL_SIZE", "lots", "a whole number of 1 or more"),
        ("DATABASE_POOL_SIZE", "-5", "a whole number of 1 or more"),
        ("RENDER_WORKERS", "2.5", "a whole number of 1 or more"),
        ("REMOVED_SERVER_DAYS", "0", "a whole number of 1 or more"),
        ("DEV_GUILD_ID", "my-server", "an id of digits"),
        ("DISCORD_CLIENT_ID", "my-bot", "an id of digits"),
        ("METRICS_PORT", "99999", "a port number from 0 to 65535"),
        ("LOG_LEVEL", "loud", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("LOG_FORMAT", "yaml", "one of text, json"),
        ("GAME_THREADS", "maybe", "on or off"),
        ("SHARD_IDS", "0-x", "shard numbers such as 0-3, 0,2,4 or 0-1,6"),
        ("SHARD_IDS", "3-1", "shard numbers such as 0-3, 0,2,4 or 0-1,6"),
    ],
)
def test_a_value_not_allowed_is_one_sentence_naming_the_setting(environment, variable, value, allowed):
    environment.setenv(variable, value)
    if variable == "SHARD_IDS":
        environment.setenv("SHARD_COUNT", "4")
    with pytest.raises(SettingError) as refused:
        Settings.from_environment()
    assert str(refused.value).startswith(f"{variable} must be {allowed}")
    assert str(refused.value).endswith(f"not {value!r}.")
    assert str(refused.value).count(". ") == 0, "one sentence"


def test_a_database_url_that_is_not_postgresql_is_refused_without_repeating_it(environment):
    environment.setenv("DATABASE_URL", "mysql://octagon:hunter2@db.example/octagon")
    with pytest.raises(SettingError, match=r"^DATABASE_URL must be a PostgreSQL URL, postgresql://") as refused:
        Settings.from_environment()
    assert "hunter2" not in str(refused.value)


def test_shards_beyond_the_count_and_ids_without_a_count(environment):
    environment.setenv("SHARD_IDS", "5")
    with pytest.raises(SettingError, match=r"^SHARD_IDS needs SHARD_COUNT"):
        Settings.from_environment()
    environment.setenv("SHARD_COUNT", "4")
    with pytest.raises(SettingError, match=r"^SHARD_IDS must be between 0 and SHARD_COUNT - 1 \(3\)\.$"):
        Settings.from_environment()


def test_allowed_values_and_empty_ones(environment):
    for variable, value in {
        "SHARD_COUNT": "8",
        "SHARD_IDS": "0-1, 6",
        "DATABASE_POOL_SIZE": "5",
        "LOG_LEVEL": "debug",
        "LOG_FORMAT": "JSON",
        "GAME_THREADS": "Off",
        "METRICS_PORT": "0",
        "DEV_GUILD_ID": "123456789012345678",
        "RENDER_WORKERS": "",
    }.items():
        environment.setenv(variable, value)
    settings = Settings.from_environment()
    assert (settings.shard_count, settings.shard_ids, settings.database_pool_size) == (8, (0, 1, 6), 5)
    assert (settings.log_level, settings.log_format, settings.game_threads) == ("DEBUG", "json", False)
    assert (settings.metrics_port, settings.dev_guild_id) == (0, 123456789012345678)
    assert settings.render_workers == Settings.render_workers


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_python_m_bot_refuses_a_bad_setting_in_one_log_line(tmp_path, log_format):
    for variable, value in (("SHARD_COUNT", "abc"), ("DATABASE_POOL_SIZE", "lots")):
        environment = {k: v for k, v in os.environ.items() if k not in {v for _, v, _ in variables()}}
        environment.update({variable: value, "LOG_FORMAT": log_format, "PYTHONPATH": str(ROOT)})
        result = subprocess.run(
            [sys.executable, "-m", "bot"], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60
        )
        assert result.returncode == EXIT_BAD_SETTING
        assert result.stdout == ""
        (line,) = result.stderr.splitlines()
        message = f"{variable} must be a whole number of 1 or more, not {value!r}."
        if log_format == "json":
            record = json.loads(line)
            assert (record["level"], record["message"]) == ("ERROR", message)
            assert "exception" not in record
        else:
            assert line.endswith(f" ERROR bot: {message}")


def settings_table() -> list[tuple[list[str], str]]:
    """README's settings table: (the settings a row names, its default column)."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("| setting | default | meaning |")
    rows = readme[start:].split("\n\n", 1)[0].splitlines()[2:]
    table = []
    for row in rows:
        names, default, _ = (cell.strip() for cell in row.strip("|").split("|", 2))
        table.append((re.findall(r"`([A-Z_]+)`", names), default))
    return table


def defaults() -> dict[str, object]:
    return {variable: getattr(Settings, name) for name, variable, _ in variables()}


def readers() -> dict[str, object]:
    return {variable: reader for _, variable, reader in variables()}


def test_readme_has_one_settings_table_naming_every_setting_with_its_default():
    readme = (ROOT / "README.md").read_text()
    assert readme.count("| setting | default | meaning |") == 1, "one settings table"
    table = settings_table()
    named = [name for names, _ in table for name in names]
    assert sorted(named) == sorted(defaults()), "README's settings table and bot/core/settings.py differ"
    for names, default in table:
        literals = re.findall(r"`([^`]+)`", default)
        if default.startswith("none"):
            assert all(defaults()[name] is None for name in names), names
        elif literals:
            assert len(literals) == len(names), (names, default)
            for name, literal in zip(names, literals, strict=True):
                assert read(name, readers()[name], literal) == defaults()[name], (name, literal)


def test_env_example_lists_every_setting_with_its_default():
    lines = (ROOT / ".env.example").read_text().splitlines()
    listed: dict[str, str] = {}
    comment: list[str] = []
    for line in lines:
        if line.startswith("#") or not line.strip():
            comment = [*comment, line] if line.startswith("#") else []
            continue
        variable, _, value = line.partition("=")
        listed[variable] = value
        said = re.findall(r"Default: (\d+)(?![\d.]*\d)", " ".join(comment))
        for number in said:  # a number the comment gives as the default is the class's
            assert read(variable, readers()[variable], number) == defaults()[variable], (variable, number)
        comment = []
        if value:  # a value shown is the default
            assert read(variable, readers()[variable], value) == defaults()[variable], (variable, value)
    assert sorted(listed) == sorted(defaults()), ".env.example and bot/core/settings.py differ"


def test_every_setting_has_a_reader_and_a_variable():
    for field in dataclasses.fields(Settings):
        assert re.fullmatch(r"[A-Z][A-Z_]+", field.metadata["variable"]), field.name
