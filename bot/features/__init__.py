"""What happens around every game: challenges, games in threads, the turn clock, results and
ratings, computer players, replays and history, and the shared commands."""
