"""How much each Octagone computer level beats the one below it, in two and four players.

Run: ``python -m bench.octagone_levels [games]`` (default 200 games per pairing and player count).
Pairings: easy vs random play, medium vs easy, hard vs medium, and medium vs a one-move greedy
player (``greedy`` in :mod:`engines.octagone.ai`: the move whose position the plain evaluation
rates best, one ply ahead, averaged over eight guessed deals of the hidden shields with four
players; members are never offered it). Games go in pairs on the same deal
with the sides swapped: the stronger side starts (places the White Lady) in one game of each pair
and the weaker side in the other. With four players each level takes one pair of partners, seats
{0, 2} or {1, 3}. Draws count as not won. The levels search by node budgets, not time, so the rates
do not depend on how busy the machine is; the milliseconds per move do (two games run at once).
"""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engines.octagone import ENGINE, choose_action

PAIRINGS = (("easy", "random"), ("medium", "easy"), ("hard", "medium"), ("medium", "greedy"))
PLAYER_COUNTS = (2, 4)
DEFAULT_GAMES = 200
SEED_BASE = 20_000  # deals no test uses


@dataclass
class GameResult:
    result: str  # for the stronger side: "win", "draw" or "loss"
    seconds: dict[str, float]  # thinking time per level
    moves: dict[str, int]  # moves per level


def stronger_seats(players: int, starter: int, stronger_starts: bool) -> set[int]:
    """The stronger side's seats: the starter's side in one game of a pair, the other side in the other."""
    side = starter % 2  # two players: the starter's seat; four: the starter's pair, {0, 2} or {1, 3}
    if not stronger_starts:
        side = 1 - side
    return {side, side + 2} if players == 4 else {side}


def play_game(game: int, stronger: str, weaker: str, players: int) -> GameResult:
    deal = SEED_BASE + game // 2
    state = ENGINE.new_game(players, {}, deal)
    ours = stronger_seats(players, state.starter, stronger_starts=game % 2 == 0)
    rng = random.Random(game)
    seconds = {stronger: 0.0, weaker: 0.0}
    moves = {stronger: 0, weaker: 0}
    while not state.over:
        seat = state.to_move
        level = stronger if seat in ours else weaker
        start = time.perf_counter()
        if level == "random":
            action = rng.choice([a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"])
        else:
            action = choose_action(state, seat, level, seed=game * 10 + (seat in ours))
        seconds[level] += time.perf_counter() - start
        moves[level] += 1
        state = ENGINE.apply(state, seat, action)
    outcome = state.outcome
    mine = min(ours)
    result = "draw" if outcome.is_draw else "win" if mine in outcome.winners else "loss"
    return GameResult(result, seconds, moves)


def _play(args: tuple[int, str, str, int]) -> GameResult:
    return play_game(*args)


def measure(stronger: str, weaker: str, players: int, games: int, pool: ProcessPoolExecutor) -> dict[str, float]:
    jobs = [(game, stronger, weaker, players) for game in range(games)]
    results = list(pool.map(_play, jobs, chunksize=4))
    wins = sum(r.result == "win" for r in results)
    draws = sum(r.result == "draw" for r in results)
    row: dict[str, float] = {"games": games, "wins": wins, "draws": draws, "win_rate": wins / games}
    for role, level in (("stronger", stronger), ("weaker", weaker)):
        moves = sum(r.moves[level] for r in results)
        row[f"{role}_ms"] = 1000 * sum(r.seconds[level] for r in results) / max(moves, 1)
    return row


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else DEFAULT_GAMES
    print(f"Octagone computer levels: {games} games per row, sides swapped on each deal, draws count as not won")
    print()
    print("| Pairing | Players | Games | Wins | Draws | Win rate | ms per move (stronger / weaker) |")
    print("|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=2) as pool:
        for stronger, weaker in PAIRINGS:
            for players in PLAYER_COUNTS:
                row = measure(stronger, weaker, players, games, pool)
                print(
                    f"| {stronger} vs {weaker} | {players} | {games} | {row['wins']} | {row['draws']} | "
                    f"{row['win_rate']:.0%} | {row['stronger_ms']:.1f} / {row['weaker_ms']:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main(sys.argv[1:])
