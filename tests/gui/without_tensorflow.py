"""A stand-in for engine.checks.tensorflow_check.load on a machine without TensorFlow: the
TensorFlow checker's child process imports TensorFlow with it (see test_rules_tab)."""

from engine.checks.tensorflow_check import INSTALL_HINT, TensorFlowUnavailable


def load():
    raise TensorFlowUnavailable(f"TensorFlow cannot be imported (simulated); {INSTALL_HINT}")
