"""Hypothesis strategies for random programs of the expression language."""

from hypothesis import strategies as st

INPUT_NAMES = ("a", "b", "c")


@st.composite
def expressions(draw, depth=4):
    """Text of an expression over the inputs a, b, c that stays in every rule's domain."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from([*INPUT_NAMES, "0.5", "2", "1.5"]))
    kind = draw(st.sampled_from(["+", "-", "*", "/", "**", "neg", "tanh", "relu", "sigmoid",
                                 "exp", "log", "sin", "cos", "sqrt", "abs", "pow"]))
    left = draw(expressions(depth=depth - 1))
    if kind in ("+", "-", "*"):
        return f"({left} {kind} {draw(expressions(depth=depth - 1))})"
    if kind == "/":  # a divisor that cannot be 0
        return f"({left} / (1.5 + sigmoid({draw(expressions(depth=depth - 1))})))"
    if kind == "**":
        # no **0: at 0, TensorFlow's pow gradient is 0 * 0**-1 = nan, ours is 0
        return f"({left})**{draw(st.sampled_from(['2', '3', '-1']))}"
    if kind == "neg":
        return f"-({left})"
    if kind == "exp":
        return f"exp(tanh({left}))"
    if kind == "log":
        return f"log(1 + sigmoid({left}))"
    if kind == "sqrt":  # an argument that cannot be 0
        return f"sqrt(0.5 + sigmoid({left}))"
    if kind == "pow":  # a positive base, an exponent that may depend on an input
        return f"(0.5 + sigmoid({left}))**(tanh({draw(expressions(depth=depth - 1))}))"
    return f"{kind}({left})"


@st.composite
def programs(draw):
    """A whole program: three inputs, a named intermediate or two, and an output."""
    values = draw(st.lists(st.floats(-2, 2, allow_nan=False).map(lambda x: round(x, 3)),
                           min_size=3, max_size=3))
    lines = [f"{n} = {v!r}" for n, v in zip(INPUT_NAMES, values)]
    lines.append(f"u = {draw(expressions())}")
    lines.append(f"v = u * {draw(expressions())} + u")
    return "\n".join(lines)
