"""Shared test set-up: Qt always offscreen, so tests never need a display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
