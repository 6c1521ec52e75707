from engines.base import Outcome, ranks_from_scores


def test_sides_group_partners_and_default_to_one_seat_each():
    pairs = Outcome(ranks=(1, 3, 1, 3), scores=(5, 9, 5, 9), reason="fewest shields", teams=(0, 1, 0, 1))
    assert pairs.sides() == [(0, 2), (1, 3)]
    assert pairs.winners == (0, 2)
    assert not pairs.is_draw
    alone = Outcome(ranks=(2, 1, 3), scores=(4, 6, 1), reason="points")
    assert alone.sides() == [(0,), (1,), (2,)]


def test_draw_and_competition_ranks():
    assert Outcome(ranks=(1, 1), scores=(0.5, 0.5), reason="draw").is_draw
    assert ranks_from_scores([3, 5, 5, 1]) == (3, 1, 1, 4)
    assert ranks_from_scores([3, 5, 1], higher_is_better=False) == (2, 3, 1)
