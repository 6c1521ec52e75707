"""The lock files: exact versions with their hashes, made by uv from pyproject.toml.

    python scripts/lock.py           write requirements/{runtime,playground,dev}.lock
    python scripts/lock.py --check   exit 1 if they no longer match pyproject.toml (CI runs it)

Each lock is ``uv pip compile --universal --generate-hashes`` of pyproject.toml with one extra
(none for the runtime), for Python 3.11 and up on any platform. A lock already there is kept as
the resolver's preference, so locking again changes a pin only when pyproject.toml asks for it
(``--upgrade`` takes the newest versions instead). The first line of each is the digest of what
pyproject.toml declares (tests/test_lock.py checks it offline; ``--check`` resolves again).

Installing through a lock: ``pip install -r requirements/dev.lock`` (pip checks every hash),
then ``pip install --no-deps -e .``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
LOCKS = {"runtime": None, "playground": "playground", "dev": "dev"}  # lock name -> extra
PYTHON = "3.11"
DIGEST_LINE = "# pyproject.toml dependencies sha256: "


def lock_path(name: str) -> Path:
    return ROOT / "requirements" / f"{name}.lock"


def declared_digest() -> str:
    """The digest of what pyproject.toml declares: its dependencies, extras and Python."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    declared = {key: project.get(key) for key in ("dependencies", "optional-dependencies", "requires-python")}
    return hashlib.sha256(json.dumps(declared, sort_keys=True).encode()).hexdigest()


def uv() -> list[str]:
    found = shutil.which("uv")
    if found:
        return [found]
    return [sys.executable, "-m", "uv"]


def compile_lock(extra: str | None, output: Path, upgrade: bool) -> None:
    command = [
        *uv(),
        "pip",
        "compile",
        "pyproject.toml",
        "--universal",
        "--generate-hashes",
        "--python-version",
        PYTHON,
        "--no-header",
        "--quiet",
        "--output-file",
        str(output),
    ]
    if extra:
        command += ["--extra", extra]
    if upgrade:
        command.append("--upgrade")
    subprocess.run(command, cwd=ROOT, check=True)
    made = f"python scripts/lock.py  (uv pip compile{' --extra ' + extra if extra else ''}, universal, hashes)"
    body = output.read_text()
    output.write_text(f"{DIGEST_LINE}{declared_digest()}\n# Made by {made}: do not edit.\n{body}")


def body(path: Path) -> str:
    """A lock without its two header lines."""
    return "".join(path.read_text().splitlines(keepends=True)[2:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a lock no longer matches pyproject.toml")
    parser.add_argument("--upgrade", action="store_true", help="take the newest versions pyproject.toml allows")
    options = parser.parse_args(argv)
    stale = []
    for name, extra in LOCKS.items():
        target = lock_path(name)
        if not options.check:
            target.parent.mkdir(exist_ok=True)
            compile_lock(extra, target, options.upgrade)
            print(f"wrote {target.relative_to(ROOT)}")
            continue
        with tempfile.TemporaryDirectory() as folder:
            again = Path(folder) / target.name
            if target.exists():
                again.write_text(target.read_text())  # its pins are the preference
            compile_lock(extra, again, upgrade=False)
            if not target.exists() or target.read_text() != again.read_text():
                stale.append(str(target.relative_to(ROOT)))
    if stale:
        print(f"out of date with pyproject.toml: {', '.join(stale)}; run python scripts/lock.py", file=sys.stderr)
        return 1
    if options.check:
        print("the locks match pyproject.toml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
