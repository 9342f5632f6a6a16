"""The autodiff engine: pure Python and numpy, no Qt, TensorFlow only when asked."""

from engine.core.value import Value, topological_order, zero_grad
from engine.errors import ExpressionError
from engine.language import Program, parse

__all__ = ["ExpressionError", "Program", "Value", "parse", "topological_order", "zero_grad"]
