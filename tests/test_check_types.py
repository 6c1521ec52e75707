"""The type check's ratchet (scripts/check_types.py): errors counted per file may only fall, a new
module and a strict package (engines/) may have none, and a baseline above the count must be lowered.
CI runs the check itself (.ci/run); these test how it judges mypy's output."""

from __future__ import annotations

import json

from scripts.check_types import BASELINE, STRICT, compare, count_errors, read_baseline, write_baseline

OUTPUT = """\
bot/a.py:3: error: Missing type arguments for generic type "dict"  [type-arg]
bot/a.py:3: note: See https://mypy.readthedocs.io
bot/a.py:9:5: error: Returning Any from function declared to return "int"  [no-any-return]
render/b.py:1: error: Function is missing a return type annotation  [no-untyped-def]
"""


def test_errors_are_counted_per_file_and_notes_are_not_errors():
    assert count_errors(OUTPUT) == {"bot/a.py": 2, "render/b.py": 1}


def test_the_same_counts_as_the_baseline_pass():
    assert compare({"bot/a.py": 2}, {"bot/a.py": 2}) == []


def test_a_file_with_more_errors_than_its_baseline_fails_naming_it():
    assert compare({"bot/a.py": 3}, {"bot/a.py": 2}) == ["bot/a.py: 3 errors, the baseline allows 2"]


def test_a_new_module_must_have_no_errors():
    assert compare({"bot/new.py": 1}, {}) == ["bot/new.py: 1 error, the baseline allows 0"]


def test_a_strict_package_fails_on_any_error_whatever_the_baseline():
    assert compare({"engines/base.py": 1}, {"engines/base.py": 5}) == [
        "engines/base.py: 1 error in a strict package",
        "engines/base.py: 1 error, the baseline still says 5 (run `python scripts/check_types.py --update`)",
    ]


def test_a_baseline_above_the_count_must_be_lowered():
    problems = compare({"bot/a.py": 1}, {"bot/a.py": 2, "render/b.py": 4})
    assert problems == [
        "bot/a.py: 1 error, the baseline still says 2 (run `python scripts/check_types.py --update`)",
        "render/b.py: 0 errors, the baseline still says 4 (run `python scripts/check_types.py --update`)",
    ]


def test_the_written_baseline_keeps_no_strict_file_and_no_zero(tmp_path):
    path = tmp_path / "baseline.json"
    write_baseline({"render/b.py": 1, "bot/a.py": 2, "bot/clean.py": 0, "engines/x.py": 3}, path)
    assert json.loads(path.read_text()) == {"bot/a.py": 2, "render/b.py": 1}
    assert read_baseline(path) == {"bot/a.py": 2, "render/b.py": 1}


def test_the_checked_in_baseline_names_no_strict_package_and_only_files_that_exist():
    baseline = read_baseline(BASELINE)
    assert baseline, "scripts/mypy_baseline.json is missing: python scripts/check_types.py --reset"
    assert [path for path in baseline if path.startswith(STRICT)] == []
    assert [path for path in baseline if not (BASELINE.parent.parent / path).exists()] == []
