"""From numbers to a sentence: the likely cause of a wrong gradient.

Each known bug of a rule is written as the local derivative it would compute; the
expected graph is differentiated again with that bug in place, and a bug whose numbers
match the received ones at every failing case is named. Otherwise the ratio of the
received to the expected gradients may show a sign, a factor or nothing at all.
Runs on this project's own `Value`s only.
"""

from __future__ import annotations

import math

from engine.core import ops
from engine.core.engines import Engine
from engine.core.explain import number
from engine.core.pitfalls import OVERWRITE
from engine.core.stepping import Stepper
from engine.language import parse

REL, ABS = 1e-6, 1e-9


def same_number(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=REL, abs_tol=ABS)


def _op_of_check(check: str):
    entry = ops.OP_OF_CHECK[check]
    return lambda op: ops.of(op) is entry


# check -> [(sentence, local derivatives from (a, b, out, k))]; a, b: the operands' data
_BUGS = {check.name: check.bugs for check in ops.CHECKS}

IGNORES_UPSTREAM = ("the rule ignores the upstream gradient: it adds its local derivative "
                    "without multiplying it by out.grad")


def _gradients(text: str, check: str | None = None, bug=None, ignore_upstream=False,
               engine: Engine | None = None) -> dict[str, float]:
    """Every input's gradient of `text` by this project's engine, with one rule replaced
    by a buggy one (`bug`), or run by another engine (a classic bug), if asked."""
    program = parse(text)
    if engine is not None:
        Stepper(program.output, engine).run_to_end()
        return {n: v.grad for n, v in program.inputs.items()}
    matches = _op_of_check(check) if check else (lambda op: False)
    grads = {program.output: 1.0}
    for node in reversed(program.nodes):
        g = grads.get(node, 0.0)
        local = node.local_grads
        if node.parents and matches(node.op):
            parents = node.parents
            if ops.CHECK_BY_NAME[check].reflected and len(parents) == 2:
                a, b = parents[0].data, parents[1].data
                bugged = bug(a, b, node.data, 0.0) if bug else local
                local = (0.0, bugged[-1]) if bug else local
            elif bug is not None:
                a = parents[0].data
                b = parents[1].data if len(parents) == 2 else None
                k = ops.exponent(node.op) if ops.of(node.op) is ops.POWER else 0.0
                local = bug(a, b, node.data, k)
            if ignore_upstream:
                for p, lg in zip(parents, local):
                    grads[p] = grads.get(p, 0.0) + lg
                continue
        for p, lg in zip(node.parents, local):
            grads[p] = grads.get(p, 0.0) + lg * g
    return {n: grads.get(v, 0.0) for n, v in program.inputs.items()}


def _matches(failures: list[dict], predict) -> bool:
    for f in failures:
        try:
            want = predict(f["text"])
        except (ArithmeticError, ValueError):
            return False
        got = f["received"]["grads"]
        if not all(same_number(got.get(n, math.nan), g) for n, g in want.items()):
            return False
    return True


def _first_difference(f: dict) -> tuple[str, float, float] | None:
    got, want = f["received"]["grads"], f["expected"]["grads"]
    for name, g in want.items():
        r = got.get(name, math.nan)
        if not same_number(r, g):
            return name, r, g
    return None


def what_differs(f: dict) -> str:
    """The first number that differs in case `f`, in words."""
    got, want = f["received"]["value"], f["expected"]["value"]
    if not same_number(got, want):
        return f"`{f['title']}` gives {number(got)} instead of {number(want)}"
    name, r, g = _first_difference(f) or ("x", math.nan, math.nan)
    return f"`{f['title']}` gives {number(r)} instead of {number(g)} for d out/d{name}"


def _ratio_sentence(failures: list[dict]) -> str | None:
    ratios, names = [], set()
    for f in failures:
        got, want = f["received"]["grads"], f["expected"]["grads"]
        for name, g in want.items():
            r = got.get(name, math.nan)
            if not same_number(r, g):
                if g == 0.0:
                    return None
                ratios.append(r / g)
                names.add(name)
    if not ratios or not all(same_number(q, ratios[0]) for q in ratios):
        return None
    q = ratios[0]
    if same_number(q, 0.0):
        which = " and ".join(sorted(names))
        return f"no gradient reaches {which}: the rule never adds to its .grad"
    if same_number(q, -1.0):
        return "the sign is wrong: every gradient has the opposite sign"
    if same_number(q, 2.0):
        return "every gradient is twice what it should be"
    if same_number(q, 0.5):
        return "every gradient is half what it should be"
    return f"every gradient is {number(q)} times what it should be"


def rule_sentence(check: str, failures: list[dict]) -> str:
    """Why the rule `check` failed on `failures` (its failing cases), in a sentence."""
    first = failures[0]
    got, want = first["received"]["value"], first["expected"]["value"]
    if not same_number(got, want):
        return (f"the value is wrong: {first['title']} gives {number(got)} instead of "
                f"{number(want)}")
    for sentence, bug in _BUGS.get(check, []):
        if _matches(failures, lambda t, bug=bug: _gradients(t, check, bug)):
            return sentence
    if _matches(failures, lambda t: _gradients(t, check, None, ignore_upstream=True)):
        return IGNORES_UPSTREAM
    ratio = _ratio_sentence(failures)
    if ratio:
        return ratio
    name, r, g = _first_difference(first) or ("x", math.nan, math.nan)
    return f"{first['title']}: d out/d{name} received {number(r)} instead of {number(g)}"


def accumulation_sentence(failures: list[dict]) -> str:
    # the order the user's engine applies two rules in may differ from ours (a set of
    # parents), and with `=` the last one wins: one case that `=` explains is enough
    for f in failures:
        if _matches([f], lambda t: _gradients(t, engine=OVERWRITE)):
            name, r, g = _first_difference(f)
            return (f"`{f['title']}` gives {number(r)} instead of {number(g)} for d out/d{name}: "
                    "`=` instead of `+=` (a value used twice keeps only the last of its "
                    "contributions)")
    first = failures[0]
    name, r, g = _first_difference(first) or ("a", math.nan, math.nan)
    return (f"`{first['title']}` gives {number(r)} instead of {number(g)} for d out/d{name}: "
            "the contributions of a value's uses are not all added up")


def order_sentence(failures: list[dict], builds: int, set_parents: bool) -> str:
    first = failures[0]
    name, r, g = _first_difference(first) or ("x", math.nan, math.nan)
    luck = (" With `_prev` a set, which builds go wrong depends on memory addresses."
            if set_parents else "")
    return (f"`{first['title']}` gives {number(r)} instead of {number(g)} for d out/d{name} "
            f"(wrong on {len(failures)} of {builds} diamond graphs): a node passed its "
            "gradient on before every path had reached it, so backward() does not apply "
            f"the rules in reverse topological order.{luck}")


def root_sentence(failures: list[dict]) -> str:
    first = failures[0]
    root = first["received"].get("root_grad")
    if root is not None and same_number(root, 0.0):
        return ("dL/dL is never set to 1: after backward() the root's grad is 0, so every "
                "gradient is 0")
    if root is not None and not same_number(root, 1.0):
        return f"the root's gradient after backward() is {number(root)}, not 1 (dL/dL = 1)"
    name, r, g = _first_difference(first) or ("x", math.nan, math.nan)
    return f"`{first['title']}`: d out/d{name} received {number(r)} instead of {number(g)}"
