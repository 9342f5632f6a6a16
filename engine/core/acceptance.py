"""One check of whether a program is one the app can show and step, shared by the window
and every command that takes a program (grad, export, screenshot, animate): it parses,
and every value and every gradient of its backward pass is a finite number."""

from __future__ import annotations

from engine.core.stepping import backward_plan, gradient_error
from engine.language import Program, parse


def accepted(text: str) -> Program:
    """The program in `text`, if it is acceptable; ExpressionError (with its line and
    column) otherwise: a parse error, a value that overflows (parse finds those), or a
    gradient of any node, an input's or a constant's, that is not a finite number (`x =
    1e-300; c = 1e200; y = x*c*c` has dy/dx = 1e400). The program's gradients are left
    at 0, as a freshly parsed program has them."""
    program = parse(text)
    error = gradient_error(program, backward_plan(program.output))
    if error is not None:
        raise error
    return program
