"""The framework every game shares: sessions, the store and its database, migrations, the outbox,
timers, worker processes and settings. Nothing here knows Discord's UI or a feature."""
