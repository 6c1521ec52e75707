from dataclasses import dataclass

import pytest

from engines.base import Game, GameState, Outcome, ranks_from_scores
from engines.registry import engine as registered_engine
from engines.registry import games


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


@dataclass
class CountState(GameState):
    pass


class CountingGame(Game[CountState]):
    """A toy engine that declares 2 to 3 players and checks nothing itself."""

    name, title, min_players, max_players, state_class = "counting", "Counting", 2, 3, CountState

    def new_game(self, players, options, seed):
        return CountState(seed=seed, players=players)


def test_new_game_refuses_fewer_players_than_the_engine_declares():
    engine = CountingGame()
    with pytest.raises(ValueError, match=r"^Counting needs at least 2 players, not 1\.$"):
        engine.new_game(1, {}, 7)
    with pytest.raises(ValueError, match=r"^Counting takes at most 3 players, not 4\.$"):
        engine.new_game(4, {}, 7)
    assert engine.new_game(2, {}, 7).players == 2
    assert engine.new_game(3, {}, 7).players == 3


@pytest.mark.parametrize("game", games())
def test_every_engine_refuses_one_player_fewer_than_its_minimum(game):
    engine = registered_engine(game)
    with pytest.raises(ValueError, match=f"^{engine.title} needs at least"):
        engine.new_game(engine.min_players - 1, {}, 7)
    assert engine.new_game(engine.min_players, {}, 7).players == engine.min_players
