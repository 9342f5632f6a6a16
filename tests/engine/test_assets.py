"""The app's own files are found through one function: in a checkout, its assets/ folder
(tests/packaging/test_wheel.py proves the installed side)."""

from pathlib import Path

from engine.assets import ROOT, asset_path

CHECKOUT_ASSETS = Path(__file__).resolve().parents[2] / "assets"


def test_a_checkout_uses_its_own_assets_folder():
    assert ROOT == CHECKOUT_ASSETS
    assert asset_path("presets", "01-neuron.expr") == CHECKOUT_ASSETS / "presets" / "01-neuron.expr"


def test_every_kind_of_asset_is_there():
    for parts in (("presets", "01-neuron.expr"), ("engines", "tanh_rule.py"),
                  ("icons", "autograd-debugger.svg"), ("autograd-debugger.desktop",)):
        assert asset_path(*parts).is_file(), parts
    desktop = asset_path("autograd-debugger.desktop").read_text(encoding="utf-8")
    assert "Exec=autograd-debugger %f" in desktop  # the command the wheel installs
    assert "Icon=autograd-debugger" in desktop
