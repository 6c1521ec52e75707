"""The lock files (requirements/*.lock, made by ``python scripts/lock.py`` with uv) match
pyproject.toml: each was made from what it declares now (its digest), pins every dependency it
declares at a version it allows, and gives each pin's hashes. Offline; CI also resolves again
(``python scripts/lock.py --check``)."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
spec = importlib.util.spec_from_file_location("lock", ROOT / "scripts" / "lock.py")
lock = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lock)


def pins(path: Path) -> dict[str, tuple[str, int]]:
    """Each pinned package: its version and how many hashes it gives."""
    found: dict[str, tuple[str, int]] = {}
    for entry in re.split(r"\n(?=\S)", path.read_text()):
        match = re.match(r"([A-Za-z0-9_.\-]+)==(\S+)", entry)
        if match:
            found[canonicalize_name(match[1])] = (match[2].rstrip(" \\;"), entry.count("--hash=sha256:"))
    return found


def declared(extra: str | None) -> list[Requirement]:
    listed = PROJECT["dependencies"] + (PROJECT["optional-dependencies"][extra] if extra else [])
    return [Requirement(text) for text in listed]


@pytest.mark.parametrize(("name", "extra"), lock.LOCKS.items())
def test_the_lock_was_made_from_pyproject_as_it_is(name, extra):
    path = lock.lock_path(name)
    first = path.read_text().splitlines()[0]
    assert first == f"{lock.DIGEST_LINE}{lock.declared_digest()}", (
        f"{path.name} was made from another pyproject.toml: run python scripts/lock.py"
    )


@pytest.mark.parametrize(("name", "extra"), lock.LOCKS.items())
def test_the_lock_pins_every_declared_dependency_within_its_bounds_with_hashes(name, extra):
    pinned = pins(lock.lock_path(name))
    environment = {**default_environment(), "python_version": "3.11", "python_full_version": "3.11.0"}
    for requirement in declared(extra):
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        key = canonicalize_name(requirement.name)
        assert key in pinned, f"{name}.lock does not pin {requirement.name}"
        version, _ = pinned[key]
        assert requirement.specifier.contains(version, prereleases=True), f"{key}=={version} is outside {requirement}"
    assert all(hashes for _, hashes in pinned.values()), "every pin has its hashes"
    if extra is None:
        assert set(pinned) <= set(pins(lock.lock_path("dev"))), "the dev lock holds the runtime's packages"


def test_a_major_version_of_discord_py_or_pillow_is_not_taken():
    bounds = {canonicalize_name(r.name): r.specifier for r in declared(None)}
    assert not bounds["discord-py"].contains("3.0.0")
    assert not bounds["pillow"].contains("14.0.0")
    assert bounds["pillow"].contains("13.0.0")
