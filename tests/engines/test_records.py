"""Game records: every game played by the computer writes a record that reads back into the engine
and replays to the same final state; every action's notation reads back as the same action."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engines.base import Game, GameState, IllegalAction, Outcome
from engines.record import GameRecord, changed_options, read_record, replay_record, result_of, write_record
from engines.registry import engine as registered_engine
from engines.registry import games, package
from tests.engines.test_contract import play, running
from tests.games import GAMES, IDS

RECORD_GAMES = [*GAMES, ("octagion", 3, {"rounds": 2, "teams": [0, 1, 1], "variation": "beta"})]
RECORD_IDS = [*IDS, "octagion-3-beta"]
NAMES = ("Ada", 'Bo "the" Bold', "Cy: (2) [x]", "Dï 🎲\\")
ACTIONS_CAP = 800


def engine_of(game: str) -> Game:
    return registered_engine(game)


def computer_game(game: str, players: int, options: dict, seed: int) -> tuple[list[tuple[int, dict]], GameState]:
    """A whole game between computer players: the (seat, action) log and the final state.
    Octagion's rounds end as the bot ends them: every team sets its variant, then the timer."""
    found = package(game)
    engine, choose = found.ENGINE, found.choose_action
    state = engine.new_game(players, options, seed)
    log: list[tuple[int, dict]] = []
    while engine.outcome(state) is None and len(log) < ACTIONS_CAP:
        for seat, action in _next_actions(game, engine, choose, state, seed):
            state = engine.apply(state, seat, action)
            log.append((seat, action))
            if game == "octagion" and state.phase != "playing":
                break
    return log, state


def _next_actions(game: str, engine: Game, choose: Any, state: Any, seed: int) -> list[tuple[int, dict]]:
    if game != "octagion":
        seat = engine.to_act(state)[0]
        return [(seat, choose(state, seat, "easy", seed))]
    first = engine.to_act(state)[0]
    if state.phase == "between":
        return [(first, {"type": "next_round"})]
    moves = [(seat, choose(state, seat, "hard" if seat == first else "easy", seed)) for seat in engine.to_act(state)]
    changes = [(s, a) for s, a in moves if a != {"type": "set_variant", "cards": state.variants[state.teams[s]]}]
    return [*changes, (first, {"type": "end_round", "reason": "timer", "round": state.round})]


def record_of(game: str, players: int, options: dict, seed: int, log, final, names=NAMES) -> GameRecord:
    return GameRecord(game, tuple(names[:players]), options, seed, tuple(log), "2026-11-25", result_of(final))


def random_game(game: str, players: int, options: dict, seed: int, steps: int):
    """Yield (state, seat, action) for up to ``steps`` random legal actions (no resignation)."""
    for before, seat, action, _ in play(game, players, options, seed, steps):
        yield before, seat, action


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize(("game", "players", "options"), RECORD_GAMES, ids=RECORD_IDS)
def test_a_computer_game_record_reads_back_and_replays_to_the_same_end(game, players, options):
    engine = engine_of(game)
    log, final = computer_game(game, players, options, seed=7)
    assert engine.outcome(final) is not None, "the computer game did not finish"
    record = record_of(game, players, options, 7, log, final)
    text = write_record(engine, record)
    read = read_record(engine, text)
    assert read == record
    replayed = replay_record(engine, read)
    assert engine.dump(replayed) == engine.dump(final)
    assert engine.outcome(replayed) == engine.outcome(final)
    assert f'[Result "{result_of(final)}"]' in text.splitlines()
    assert len([line for line in text.split("\n\n", 1)[1].splitlines() if line]) == len(log)


@pytest.mark.parametrize(("game", "players", "options"), RECORD_GAMES, ids=RECORD_IDS)
def test_a_resignation_mid_game_round_trips(game, players, options):
    engine = engine_of(game)
    log = running(game, players, options, 3, 9)  # fewer in a game over within 9 actions
    state = engine.replay(players, options, 3, log)
    assert engine.outcome(state) is None, f"{game}: over after {len(log)} of its actions that did not end it"
    for seat in range(players):  # Octagion's teams play on while a member remains
        if engine.outcome(state) is None:
            state = engine.apply(state, seat, {"type": "resign"})
            log.append((seat, {"type": "resign"}))
    assert engine.outcome(state) is not None, f"{game}: every seat resigned and the game goes on"
    text = write_record(engine, record_of(game, players, options, 3, log, state))
    assert text.rstrip().endswith(": resign"), f"{game}: the record does not end on the resignation"
    replayed = replay_record(engine, read_record(engine, text))
    assert engine.dump(replayed) == engine.dump(state)


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize(("game", "players", "options"), RECORD_GAMES, ids=RECORD_IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_notation_of_every_legal_action_reads_back_as_that_action(game, players, options, seed):
    engine = engine_of(game)
    checked = 0
    for state, seat, _ in random_game(game, players, options, seed, 25):
        for action in engine.legal_actions(state, seat):
            text = engine.notation(state, seat, action)
            assert len(text.splitlines()) == 1
            assert text == text.strip()
            assert engine.parse_notation(state, seat, text) == action, text
            checked += 1
    assert checked > 0


def _value(tp: Any) -> st.SearchStrategy:
    """Values of an action field type, with the awkward texts a record must survive."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is list:
        return st.lists(_value(args[0]), max_size=4)
    if args:
        return st.one_of([_value(arg) for arg in args])
    awkward = st.sampled_from(["", "-", "yes", "no", "12", "a b", "a,b", "x=y", '"q', "[1]", "{}", "é🎲", "\u2028"])
    return {
        int: st.integers(-(10**12), 10**12),
        bool: st.booleans(),
        str: st.one_of(st.text(max_size=8), awkward),
        type(None): st.none(),
    }[tp]


@st.composite
def shaped_actions(draw, engine: Game) -> dict[str, Any]:
    """Any action of the engine's spec: every required field, some optional ones, any values."""
    kind = draw(st.sampled_from(sorted({"resign", *engine.actions})))
    action: dict[str, Any] = {"type": kind}
    for name, tp in engine.actions.get(kind, {}).items():
        if not name.endswith("?") or draw(st.booleans()):
            action[name.rstrip("?")] = draw(_value(tp))
    return action


def _is_a_legal_octego_move(engine: Game, state: Any, action: dict[str, Any]) -> bool:
    """Octego writes a legal move as its full path, so a short form comes back full."""
    if engine.name != "octego" or action["type"] != "move":
        return False
    try:
        engine.apply(state, 0, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("game", games())
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_action_of_the_right_shape_round_trips_through_its_notation(game, data):
    engine = engine_of(game)
    state = engine.new_game(engine.min_players if game != "octagion" else 2, {}, 1)
    action = data.draw(shaped_actions(engine))
    assume(not _is_a_legal_octego_move(engine, state, action))
    for kind in (type(engine), Game):  # the game's own notation, then the generic one
        text = kind.notation(engine, state, 0, action)
        assert len(text.splitlines()) == 1
        assert text == text.strip()
        assert kind.parse_notation(engine, state, 0, text) == action, text


def test_an_octego_move_is_written_as_its_path_and_a_capture_with_x():
    engine = engine_of("octego")
    state = engine.new_game(2, {}, 1)
    for action in engine.legal_actions(state, 0)[:-1]:
        assert engine.notation(state, 0, action) == action["path"]
    assert engine.notation(state, 0, {"type": "move", "path": "c1-d2"}) == "c1-d2"
    log, _ = computer_game("octego", 2, {}, 7)
    captures = 0
    state = engine.new_game(2, {}, 7)
    for seat, action in log:
        text = engine.notation(state, seat, action)
        state = engine.apply(state, seat, action)
        move = next(event for event in state.events if event.kind == "move")
        separator = "x" if move.data["capture"] else "-"
        assert text == "-".join(move.data["path"][:-1]) + separator + move.data["path"][-1]
        captures += move.data["capture"] is not None
    assert captures > 0


def test_a_short_octego_move_is_written_in_full_and_replays_the_same():
    engine = engine_of("octego")
    state = engine.new_game(2, {}, 1)
    full = {a["path"] for a in engine.legal_actions(state, 0)[:-1]}
    unique = [path for path in full if sum(p[:2] == path[:2] and p[-2:] == path[-2:] for p in full) == 1]
    path = next(p for p in sorted(unique) if p.count("-") >= 2)
    typed = {"type": "move", "path": f"{path[:2].upper()} {path[-2:]}"}
    text = engine.notation(state, 0, typed)
    assert text == path
    assert engine.dump(engine.apply(state, 0, engine.parse_notation(state, 0, text))) == engine.dump(
        engine.apply(state, 0, typed)
    )


@pytest.mark.parametrize(
    ("game", "action", "text"),
    [
        ("octagone", {"type": "white_lady", "box": "C4", "direction": "NE"}, "C4 NE"),
        ("octagone", {"type": "place", "shield": "green", "direction": "SW"}, "green SW"),
        ("octagone", {"type": "place", "direction": "SW", "shield": "joker", "box": "B2"}, "joker B2 SW"),
        ("octiles", {"type": "move", "to": "D2"}, "D2"),
        ("octiles", {"type": "move", "to": "A1", "via": "b2.NE"}, "A1 via b2.NE"),
        (
            "octiles",
            {"type": "move", "to": "A1", "scramble": ["a2", "b3", "c4", "d1"]},
            "move to=A1 scramble=a2,b3,c4,d1",
        ),
        ("octiles", {"type": "rotate", "space": "c3", "orientation": 5}, "rotate space=c3 orientation=5"),
        ("octagion", {"type": "set_variant", "cards": ["S5", None, "*"]}, "S5 _ *"),
        ("octagion", {"type": "set_variant", "text": "S5 T7 _ *"}, 'set_variant text="S5 T7 _ *"'),
        ("octagion", {"type": "place", "position": 2, "card": None}, "place position=2 card=-"),
        ("octa", {"type": "lay_run", "cards": ["7H", "8H", "9H"], "token": False}, "lay_run cards=7H,8H,9H token=no"),
        (
            "octa",
            {"type": "use_action", "action": "queen", "positions": [1, 3]},
            "use_action action=queen positions=1,3",
        ),
        ("octa", {"type": "resign"}, "resign"),
    ],
)
def test_the_games_write_their_actions_concisely(game, action, text):
    engine = engine_of(game)
    state = engine.new_game(2, {}, 1)
    assert engine.notation(state, 0, action) == text
    assert engine.parse_notation(state, 0, text) == action


@pytest.mark.parametrize(
    "text", ["", "fly away", "discard card", "discard card=1 card=2", 'discard card="open', "discard bin=3"]
)
def test_unreadable_notation_is_refused_with_a_sentence(text):
    engine = engine_of("octa")
    with pytest.raises(IllegalAction, match=r"\w+ .*\w"):
        engine.parse_notation(engine.new_game(2, {}, 1), 0, text)


# ---------------------------------------------------------------- the record's text


def _octego_record(names=NAMES[:2], moves: int = 12) -> tuple[Game, GameRecord, str]:
    engine = engine_of("octego")
    log = computer_game("octego", 2, {}, 7)[0][:moves]
    state = engine.replay(2, {}, 7, log)
    result = result_of(state) if state.over else ""  # "": not known yet
    record = GameRecord("octego", tuple(names), {}, 7, tuple(log), "", result, {"GameId": "42", "Site": "x"})
    return engine, record, write_record(engine, record)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(max_size=12), min_size=2, max_size=2))
def test_any_names_round_trip(names):
    engine, record, text = _octego_record(names, moves=3)
    assert len(text.splitlines()) == 7 + 1 + 3  # tags, a blank line, actions: no name breaks a line
    assert read_record(engine, text) == record


def test_names_with_quotes_colons_brackets_and_emoji_read_back():
    names = ('Ada "x": [1] (2)', '🎲 Bo\\: ]\n[Seed "9"]')
    engine, record, text = _octego_record(names)
    assert '[Seat1 "Ada \\"x\\": [1] (2)"]' in text.splitlines()
    assert '1. [1] Ada "x": [1] (2): ' in text
    assert read_record(engine, text) == record
    assert '\n[Seed "9"]' not in text


def test_the_header_follows_the_format():
    engine, record, text = _octego_record()
    header, moves = text.split("\n\n")
    assert header.splitlines() == [
        '[Game "Octego"]',
        '[Seat1 "Ada"]',
        '[Seat2 "Bo \\"the\\" Bold"]',
        '[Seed "7"]',
        '[Result "*"]',
        '[GameId "42"]',
        '[Site "x"]',
    ]
    first_seat, first_action = record.actions[0]
    assert moves.splitlines()[0] == f"1. [{first_seat + 1}] {NAMES[first_seat]}: {first_action['path']}"
    assert read_record(engine, text).result == ""  # "*": not known


# Games with their defaults spelt out: a record of such a game names none of them. A registered game
# not here is checked with no options at all (default_cases), so a new game needs no line here.
DEFAULT_OPTIONS = [
    ("octego", 2, {"to_move": 0}),
    ("octa", 2, {}),
    ("octagone", 2, {"level": "advanced", "open_hands": False}),
    ("octagone", 4, {"open_hands": False, "extra_joker_seats": [0, 1]}),
    ("octiles", 2, {"scramble": False, "layout": {}}),
    ("octagion", 2, {"rounds": 2, "seconds": 120, "party": False, "gamma_levels": "standard", "variation": "none"}),
]


def default_cases() -> list[tuple[str, int, dict]]:
    spelt = {game for game, _, _ in DEFAULT_OPTIONS}
    return DEFAULT_OPTIONS + [(game, engine_of(game).min_players, {}) for game in games() if game not in spelt]


def test_every_game_spelt_out_here_is_registered():
    assert sorted({game for game, _, _ in DEFAULT_OPTIONS} - set(games())) == []


@pytest.mark.parametrize(
    ("game", "players", "options"), default_cases(), ids=[f"{g}-{p}" for g, p, _ in default_cases()]
)
def test_a_record_names_only_the_options_that_differ_from_the_defaults(game, players, options):
    engine = engine_of(game)
    options = engine.replay_options(engine.new_game(players, options, 7), options)  # as the bot passes them
    log, final = computer_game(game, players, options, seed=7)
    text = write_record(engine, record_of(game, players, options, 7, log, final))
    header = text.split("\n\n")[0].splitlines()
    written = [line for line in header if line.startswith("[Options ")]
    if game == "octagion":  # 2 rounds, not 8; and the edition of the Word Cards the game dealt
        edition = engine.replay_options(final, {})["word_cards"]
        assert written == [f'[Options "{{\\"rounds\\": 2, \\"word_cards\\": {edition}}}"]']
    else:
        assert written == []
    read = read_record(engine, text)
    assert engine.dump(replay_record(engine, read)) == engine.dump(final)


def test_an_option_is_kept_when_only_it_and_its_alias_together_are_the_default():
    engine = engine_of("octagion")
    options = {"variation": "beta", "variations": ["beta"], "rounds": 8, "word_cards": 1}
    kept = changed_options(engine, 3, options, 7)
    assert kept == {"variations": ["beta"], "word_cards": 1}
    assert engine.dump(engine.new_game(3, kept, 7)) == engine.dump(engine.new_game(3, options, 7))


def test_a_corrupted_line_is_named():
    engine, _, text = _octego_record()
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("5. ")) + 1
    illegal = lines[number - 1].rsplit(": ", 1)[0] + ": a1-h8"
    with pytest.raises(IllegalAction, match=f"^Line {number} does not replay: "):
        read_record(engine, "\n".join([*lines[: number - 1], illegal, *lines[number:]]))
    garbled = lines[number - 1].rsplit(": ", 1)[0] + ": move to=nowhere"
    with pytest.raises(IllegalAction, match=f"^Line {number}: I can't read 'move to=nowhere'"):
        read_record(engine, "\n".join([*lines[: number - 1], garbled, *lines[number:]]))
    for broken in ("5 Ada c1-d2", "6. [1] Ada: c1-d2", "5. [3] Cy: c1-d2", "5. [1] Someone: c1-d2"):
        with pytest.raises(ValueError, match=f"^Line {number}"):
            read_record(engine, "\n".join([*lines[: number - 1], broken, *lines[number:]]))


def test_a_wrong_game_tag_is_refused():
    _, _, text = _octego_record()
    with pytest.raises(ValueError, match="not of Octa"):
        read_record(engine_of("octa"), text)
    with pytest.raises(ValueError, match="Game"):
        read_record(engine_of("octego"), text.replace('[Game "Octego"]\n', ""))
    with pytest.raises(ValueError, match="octego"):
        write_record(engine_of("octa"), _octego_record()[1])


def test_a_result_the_actions_do_not_reach_is_refused():
    engine, record, text = _octego_record(moves=100)
    assert record.result in ("1-0", "0-1", "1/2-1/2")
    wrong = "1-0" if record.result != "1-0" else "0-1"
    with pytest.raises(ValueError, match="result"):
        read_record(engine, text.replace(f'[Result "{record.result}"]', f'[Result "{wrong}"]'))


@pytest.mark.parametrize("tag", ["Seed", "Game", "Seat3", "bad name", ""])
def test_extra_tags_may_not_take_standard_or_unreadable_names(tag):
    engine, record, _ = _octego_record()
    with pytest.raises(ValueError, match="extra tag"):
        write_record(engine, GameRecord("octego", record.names, {}, 7, (), extra={tag: "x"}))


@pytest.mark.parametrize(
    ("ranks", "teams", "result"),
    [
        ((1, 2), None, "1-0"),
        ((2, 1), None, "0-1"),
        ((1, 1), None, "1/2-1/2"),
        ((1, 1), (0, 0), "1 1"),
        ((2, 1, 2, 1), (0, 1, 0, 1), "2 1 2 1"),
        ((1,), None, "1"),
    ],
)
def test_the_result_tag_comes_from_the_ranks(ranks, teams, result):
    state = GameState(seed=1, players=len(ranks))
    assert result_of(state) == "*"
    state.outcome = Outcome(ranks, tuple(float(r) for r in ranks), "reason", teams)
    assert result_of(state) == result
