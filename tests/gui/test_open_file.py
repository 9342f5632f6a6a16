"""Opening a file reads it once, parses it once and puts its text in the editor once."""

from PySide6.QtWidgets import QMessageBox

import gui.window.files


def counting(monkeypatch, owner, name: str) -> list:
    calls = []
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_opening_a_program_parses_it_once(window, tmp_path, monkeypatch):
    path = tmp_path / "chain.expr"
    path.write_text("x = 0.5\n" + "".join(f"a{k} = tanh(x*{k})\n" for k in range(50)),
                    encoding="utf-8")
    parses = counting(monkeypatch, gui.window.files, "parse")
    reads = counting(monkeypatch, gui.window.files, "read_program")
    texts = counting(monkeypatch, window.editor, "replace_text")
    assert window.open_file(str(path))
    assert (len(reads), len(parses), len(texts)) == (1, 1, 1)
    assert window.session.program.output_name == "a49"
    assert window.editor.text() == path.read_text(encoding="utf-8")


def test_a_program_with_an_error_opened_anyway_is_parsed_once(window, tmp_path,
                                                                monkeypatch):
    path = tmp_path / "broken.expr"
    path.write_text("x = 0.5\ny = x +\n", encoding="utf-8")
    before = window.session.program
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    parses = counting(monkeypatch, gui.window.files, "parse")
    texts = counting(monkeypatch, window.editor, "replace_text")
    assert window.open_file(str(path))
    assert (len(parses), len(texts)) == (1, 1)
    assert window.session.program is before  # the last good graph stays
    assert window.editor.error.isVisibleTo(window.editor)
    assert "line 2" in window.statusBar().currentMessage().lower()
