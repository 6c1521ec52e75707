"""Words before a name or colour take the right article (issue #17: "a orange shield", "a Octiles")."""

from __future__ import annotations

import pytest

from render.narration import with_article


@pytest.mark.parametrize(
    ("word", "said"),
    [("orange", "an orange"), ("Octiles", "an Octiles"), ("green", "a green"), ("Tiny", "a Tiny"), ("", "a ")],
)
def test_with_article(word, said):
    assert with_article(word) == said
