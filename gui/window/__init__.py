"""The main window: its tabs, its menus and their actions, opening and saving files."""
