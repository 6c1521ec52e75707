"""The lessons, through the engines' public API: every lesson's position builds, its intended
answers are legal and accepted, a plausible wrong answer is legal and explained, and the lessons
cover every rule of each covered game's /rules text (bot/games/rules/<game>.md) and name none
that is gone."""

from __future__ import annotations

import pytest

from bot.features.learn.lessons import cited, matches, rule_units, rules_of
from bot.features.learn.series import SERIES
from bot.ui.adapter import RULES_FOLDER
from engines.registry import engine

COVERED = sorted(SERIES)  # the games with lessons; the others are not taught yet
LESSONS = [(game, lesson) for game in COVERED for lesson in SERIES[game].lessons]


def units(game: str) -> list[str]:
    return rule_units((RULES_FOLDER / f"{game}.md").read_text())


@pytest.mark.parametrize(("game", "lesson"), LESSONS, ids=[f"{g}-{lesson.key}" for g, lesson in LESSONS])
def test_a_lessons_answers_are_legal_its_right_ones_accepted_and_a_wrong_one_explained(game, lesson):
    played = engine(game)
    state = lesson.setup.build(played)
    assert lesson.seat in played.to_act(state)
    typed = SERIES[game].typed
    if typed is not None:  # answered in the game's form: the engine judges what is typed
        right = typed.summary(played.apply(state, lesson.seat, typed.action(lesson.example)), lesson.seat)
        assert lesson.accepts(right), f"{lesson.key}: its example {lesson.example!r} is not accepted: {right}"
        wrong = typed.summary(played.apply(state, lesson.seat, typed.action("")), lesson.seat)
        assert not lesson.accepts(wrong)
        assert lesson.explain(wrong) != "That is legal, but it is not the task."
        return
    legal = played.legal_actions(state, lesson.seat)
    for right in lesson.accepted:
        fitting = [action for action in legal if matches(action, right)]
        assert fitting, f"{lesson.key}: no legal action is the right answer {right}"
        played.apply(state, lesson.seat, fitting[0])  # the engine plays it
    named = [action for mistake in lesson.mistakes for action in mistake.actions]
    for wrong in named:
        fitting = [action for action in legal if matches(action, wrong) and not lesson.accepts(action)]
        assert fitting, f"{lesson.key}: no legal action is the mistake {wrong}"
    others = [a for a in legal if a["type"] != "resign" and not lesson.accepts(a)]
    assert others, f"{lesson.key}: no wrong answer is possible, so the task teaches nothing"
    for wrong in others:
        assert lesson.explain(wrong) != "That is legal, but it is not the task.", (lesson.key, wrong)


@pytest.mark.parametrize("game", COVERED)
def test_every_rule_has_a_lesson(game):
    rules = units(game)
    taught = {index for phrase in cited(SERIES[game]) for index in rules_of(phrase, rules)}
    untaught = [rule for index, rule in enumerate(rules) if index not in taught]
    assert not untaught, f"{game}: no lesson teaches these rules: {untaught}"


@pytest.mark.parametrize("game", COVERED)
def test_every_rule_a_lesson_names_exists_once(game):
    rules = units(game)
    wrong = {phrase: len(rules_of(phrase, rules)) for phrase in cited(SERIES[game])}
    gone = [phrase for phrase, count in wrong.items() if count == 0]
    ambiguous = [phrase for phrase, count in wrong.items() if count > 1]
    assert not gone, f"{game}: lessons name rules that are no longer in its rules text: {gone}"
    assert not ambiguous, f"{game}: these phrases fit several rules, name one: {ambiguous}"


def test_the_coverage_check_fails_on_a_rule_without_a_lesson_and_a_rule_gone():
    series = SERIES[COVERED[0]]
    rules = [*units(series.game), "a brand new rule nobody teaches"]
    taught = {index for phrase in cited(series) for index in rules_of(phrase, rules)}
    assert len(rules) - 1 not in taught
    assert rules_of("a rule that was rewritten away", rules) == []
