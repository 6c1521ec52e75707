"""The pictures, one module per game; render/registry.py names each game's public picture, narrator and replay."""
