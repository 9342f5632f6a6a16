"""The Learn tab: the lesson "Autograd from Scratch" section by section, its exercises
checked by the app, and its quiz. Importing this package is cheap (the tab itself is
made on first need, see gui/tabs/lazy.py)."""
