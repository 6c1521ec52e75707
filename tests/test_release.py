"""The release: one version (bot.__version__) that the package, `python -m bot --version` and
CHANGELOG.md's top entry agree on, and a licence the package declares and README explains."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import bot

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_version_is_semantic_and_the_package_reads_it_from_bot():
    assert re.fullmatch(r"\d+\.\d+\.\d+", bot.__version__), bot.__version__
    project = PYPROJECT["project"]
    assert "version" not in project, "the version is written once, in bot/__init__.py"
    assert project["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bot.__version__"}


def test_python_m_bot_version_prints_the_changelogs_top_release():
    printed = subprocess.run(
        [sys.executable, "-m", "bot", "--version"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, flags=re.MULTILINE)
    assert releases, "CHANGELOG.md names no release as '## [X.Y.Z] - YYYY-MM-DD'"
    assert printed == f"python -m bot {releases[0]}"
    assert releases[0] == bot.__version__


def test_changelog_keeps_the_keep_a_changelog_form():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert changelog.startswith("# Changelog\n")
    assert "keepachangelog.com" in changelog
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.MULTILINE)
    assert headings[0] == "Unreleased"
    kinds = set(re.findall(r"^### (\w+)$", changelog, flags=re.MULTILINE))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


def test_the_licence_is_declared_and_explained():
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n")
    assert PYPROJECT["project"]["license"] == "MIT"
    for path in PYPROJECT["project"]["license-files"]:
        assert (ROOT / path).is_file(), path
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## Licence\n") :]
    for named in ("[MIT licence](LICENSE)", "WORDS_LICENSE.txt", "CC BY 4.0", "Aileron"):
        assert named in section, named


def test_readme_says_how_to_upgrade_and_roll_back():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## Upgrading\n") :]
    section = section[: section.index("\n## ", 1)]
    for step in ("CHANGELOG.md", "python -m bot.db backup", "git checkout v", "Rolling back", "bot.db restore"):
        assert step in section, step
