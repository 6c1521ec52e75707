"""Reviews of finished games (issue 40): the Review button's answer, computed in the computer
workers and stored once (see :mod:`bot.features.review.reviews`)."""
