"""/learn: each game taught in short lessons, played with the game's own menus on set positions."""
