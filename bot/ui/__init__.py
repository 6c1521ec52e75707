"""What members see and touch: controls (buttons, selects, forms), turn menus, private replies
and the game message."""
