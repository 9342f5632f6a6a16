import builtins

import pytest


@pytest.fixture
def no_code_execution(monkeypatch):
    """Fail the test if anything calls eval, exec or compile while it runs."""
    calls = []

    def refuse(name):
        def guard(*args, **kwargs):
            calls.append(name)
            raise AssertionError(f"{name} was called")
        return guard

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, refuse(name))
    yield calls
    assert calls == []
