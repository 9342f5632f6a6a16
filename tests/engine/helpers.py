"""Programs the engine tests share."""

from pathlib import Path

PRESETS = Path(__file__).resolve().parents[2] / "assets" / "presets"
NEURON = (PRESETS / "01-neuron.expr").read_text(encoding="utf-8")
