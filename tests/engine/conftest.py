import builtins
import contextlib

import pytest


@pytest.fixture
def no_code_execution(monkeypatch):
    """A context manager under which any call of eval, exec or compile fails the test.

    Only what runs inside the `with` block is watched: pytest itself compiles code.
    """
    calls = []

    def refuse(name):
        def guard(*args, **kwargs):
            calls.append(name)
            raise AssertionError(f"{name} was called")
        return guard

    @contextlib.contextmanager
    def watching():
        with monkeypatch.context() as m:
            for name in ("eval", "exec", "compile"):
                m.setattr(builtins, name, refuse(name))
            try:
                yield
            finally:
                m.undo()
        assert calls == [], f"called: {calls}"

    return watching
