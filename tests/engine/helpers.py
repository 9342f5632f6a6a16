"""Programs the engine tests share."""

from engine.assets import asset_path

PRESETS = asset_path("presets")
NEURON = (PRESETS / "01-neuron.expr").read_text(encoding="utf-8")
