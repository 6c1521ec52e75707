"""Pointers stay true: every repository path a comment, a docstring, README.md or docs/ names is a
file or folder of the repository, and no comment or docstring points into a developer's machine.
A reader who follows a comment to a file that moved long ago has been sent the wrong way."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from tests.test_layers import ROOT

CODE_FOLDERS = ("engines", "render", "bot", "bench", "scripts", "tests")
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
# A path inside the repository: one of its top folders, then names; not a piece of a longer path or a
# URL (``github.com/.../bot/x.py``), nor a module's dotted name.
PATH = re.compile(r"(?<![\w./<{-])((?:engines|render|bot|bench|scripts|tests|docs|\.ci)/[\w./<>{}*…-]*[\w/])")
PLACEHOLDER = re.compile(r"[<>{}*…]")  # render/<game>.py, engines/*/rules.py: a pattern, not a file
MACHINE = re.compile(r"(?<![\w.~])/(?:work|home|Users|root|mnt)/")
# Stale pointers in files another change is rewriting: each entry must still be stale, so it is
# dropped as soon as that change fixes the line.
PENDING: set[tuple[str, str]] = set()


def python_files() -> list[Path]:
    return sorted(path for folder in CODE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def explanations(path: Path) -> Iterator[tuple[int, str]]:
    """A module's comments and docstrings, with the line each starts on."""
    source = path.read_text()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                yield node.body[0].lineno, docstring


def named_paths(text: str) -> Iterator[str]:
    for match in PATH.finditer(text):
        name = match.group(1).rstrip(".")
        if not PLACEHOLDER.search(name):
            yield name


def exists(name: str) -> bool:
    """A file or folder, or a module named without its ``.py`` (``render/octego``)."""
    return (ROOT / name).exists() or (ROOT / f"{name}.py").exists()


def stale_pointers() -> list[tuple[str, int, str]]:
    found = []
    for path in python_files():
        for line, text in explanations(path):
            found += [(path.relative_to(ROOT).as_posix(), line, name) for name in named_paths(text)]
    for document in DOCUMENTS:
        for line, text in enumerate(document.read_text().splitlines(), 1):
            found += [(document.relative_to(ROOT).as_posix(), line, name) for name in named_paths(text)]
    return [(where, line, name) for where, line, name in found if not exists(name)]


def test_every_path_named_in_a_comment_a_docstring_or_the_docs_exists():
    stale = [f"{where}:{line} names {name}" for where, line, name in stale_pointers() if (where, name) not in PENDING]
    assert stale == [], "these files or folders do not exist:\n" + "\n".join(stale)


def test_each_pending_pointer_is_still_stale():
    still = {(where, name) for where, _, name in stale_pointers()}
    assert sorted(PENDING - still) == [], "fixed already: drop these from PENDING"


def test_no_comment_or_docstring_points_into_a_developers_machine():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in python_files()
        for line, text in explanations(path)
        if MACHINE.search(text)
    ]
    assert found == [], "absolute paths of one machine: " + ", ".join(found)


def test_the_checks_see_a_stale_path_and_a_machine_path_and_skip_patterns():
    text = "see bot/menus.py, render/<game>.py, render/octego and /work/shared/rules/octego.md"
    assert [name for name in named_paths(text) if not exists(name)] == ["bot/menus.py"]
    assert MACHINE.search(text)
    assert not MACHINE.search("from `/opt/octagon-bot`, a server's folder (README's set-up)")
