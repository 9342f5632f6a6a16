"""The expression language: text in, `Program` out, never through Python's `eval`.

Each statement is parsed by operator precedence with explicit stacks (no recursion, so
deep nesting cannot exhaust Python's stack), and every node is built and checked the
moment it is parsed, so an error names the token that caused it.
"""

from __future__ import annotations

from engine.errors import ExpressionError
from engine.language.program import (
    BINARY,
    CONST,
    FUNCTIONS,
    INPUT,
    POW,
    Instruction,
    Program,
    apply,
)
from engine.language.tokens import END, NAME, NUM, OP, SEP, Token, tokenize
from engine.value import Value

MAX_CHARS = 1_000_000
MAX_DEPTH = 200
MAX_NODES = 200_000

# binding power of each operator; unary minus binds looser than ** (-x**2 is -(x**2))
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, POW: 4}
_RIGHT_ASSOC = {POW}


class _Builder:
    """Collects instructions and builds their Values as they arrive."""

    def __init__(self):
        self.instructions: list[Instruction] = []
        self.values: list[Value] = []
        self.variable: list[bool] = []  # does the node depend on an input?

    def emit(self, op: str, args: tuple[int, ...], number: float, token: Token) -> int:
        if len(self.instructions) >= MAX_NODES:
            raise ExpressionError(
                f"the program is too large: more than {MAX_NODES:,} nodes", token.line, token.col)
        ins = Instruction(op, args, number, token.line, token.col)
        if op in (INPUT, CONST):
            value = Value(number)
        else:
            value = apply(ins, [self.values[a] for a in args])
        self.instructions.append(ins)
        self.values.append(value)
        self.variable.append(op == INPUT or any(self.variable[a] for a in args))
        return len(self.values) - 1

    def first_input(self, index: int) -> str:
        """The label of an input that node `index` depends on."""
        stack, seen = [index], set()
        while stack:
            i = stack.pop()
            if self.instructions[i].op == INPUT:
                return self.values[i].label
            for a in self.instructions[i].args:
                if a not in seen and self.variable[a]:
                    seen.add(a)
                    stack.append(a)
        return "?"


def _number(token: Token, sign: str = "") -> float:
    x = float(sign + token.text)
    if x in (float("inf"), float("-inf")):
        raise ExpressionError(f"the number {token.text} is too large to represent",
                              token.line, token.col)
    return x


def parse(text: str) -> Program:
    """Parse a program of the expression language and build its graph.

    Returns a Program whose gradients are all 0. Raises ExpressionError, with the line
    and column of the offending token, for anything outside the language or over its
    limits, and for any value or local derivative that is not a finite number.
    """
    if not isinstance(text, str):
        raise TypeError("parse() takes the program's text as a str")
    if len(text) > MAX_CHARS:
        raise ExpressionError(
            f"the program is {len(text):,} characters long; the limit is {MAX_CHARS:,}")
    return _Parser(text).run()


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.build = _Builder()
        self.names: dict[str, int] = {}
        self.assigned_at: dict[str, int] = {}

    def run(self) -> Program:
        output: tuple[int, str] | None = None
        bare: Token | None = None  # start of a bare expression, legal only if last
        for statement in self._statements():
            if bare is not None:
                raise ExpressionError(
                    "an expression without a name is only allowed as the last statement "
                    "(it is the output); give it a name: name = ...", bare.line, bare.col)
            if len(statement) > 1 and statement[0].kind == NAME and statement[1].text == "=":
                output = self._assignment(statement)
            else:
                index = self._expression(statement)
                if not self.build.values[index].label:
                    self.build.values[index].label = "output"
                output, bare = (index, "output"), statement[0]
        if output is None:
            raise ExpressionError(
                "the program is empty: write at least one statement, e.g. x = 2.0", 1, 1)
        b = self.build
        return Program(self.text, b.instructions, b.values, self.names, *output)

    def _statements(self):
        """Yield each non-empty statement as a list of tokens ending with its SEP/END."""
        current: list[Token] = []
        for token in tokenize(self.text):
            current.append(token)
            if token.kind in (SEP, END):
                if len(current) > 1:
                    yield current
                current = []

    def _assignment(self, statement: list[Token]) -> tuple[int, str]:
        target, equals, rhs = statement[0], statement[1], statement[2:]
        name = target.text
        if name in FUNCTIONS:
            raise ExpressionError(f"'{name}' is a function and cannot be assigned to",
                                  target.line, target.col)
        if name in self.names:
            raise ExpressionError(
                f"'{name}' is already assigned on line {self.assigned_at[name]}; "
                "each name is assigned once", target.line, target.col)
        if rhs[0].kind in (SEP, END):
            raise ExpressionError(f"nothing after '=': give '{name}' a number or an expression",
                                  equals.line, equals.col)
        sign = rhs[0].text if rhs[0].text in ("+", "-") else ""
        literal = rhs[1:] if sign else rhs
        if len(literal) == 2 and literal[0].kind == NUM:
            index = self.build.emit(INPUT, (), _number(literal[0], sign), target)
        else:
            index = self._expression(rhs)
        value = self.build.values[index]
        if not value.label:  # otherwise `name = other` is an alias of an existing node
            value.label = name
        self.names[name] = index
        self.assigned_at[name] = target.line
        return index, name

    def _expression(self, tokens: list[Token]) -> int:
        """Parse one expression (tokens end with SEP/END) and return its node's index."""
        build = self.build
        operands: list[tuple[int, Token]] = []  # (node index, first token of the operand)
        # operator stack: [kind, op, token, commas]; kind is "bin", "neg" or "paren";
        # a paren's op is the name of the function it calls, or ""
        ops: list[list] = []
        depth = 0
        expect_operand = True

        def reduce_top() -> None:
            kind, op, token, _ = ops.pop()
            if kind == "neg":
                index, _first = operands.pop()
                operands.append((build.emit("neg", (index,), 0.0, token), token))
                return
            right, right_first = operands.pop()
            left, left_first = operands.pop()
            if op == POW:
                if build.variable[right]:
                    raise ExpressionError(
                        "the exponent of ** must be a number or arithmetic of numbers, but "
                        f"this one depends on the input '{build.first_input(right)}'",
                        right_first.line, right_first.col)
                index = build.emit(POW, (left,), build.values[right].data, token)
            else:
                index = build.emit(op, (left, right), 0.0, token)
            operands.append((index, left_first))

        def open_paren(function: str, token: Token) -> None:
            nonlocal depth
            depth += 1
            if depth > MAX_DEPTH:
                raise ExpressionError(
                    f"nesting is deeper than {MAX_DEPTH} levels of parentheses",
                    token.line, token.col)
            ops.append(["paren", function, token, 0])

        skip_paren = False  # the '(' right after a function name was already opened
        for i, token in enumerate(tokens):
            text = token.text
            if skip_paren:
                skip_paren = False
                continue
            if expect_operand:
                if token.kind == NUM:
                    operands.append((build.emit(CONST, (), _number(token), token), token))
                    expect_operand = False
                elif token.kind == NAME:
                    self._name_operand(tokens, i, operands)
                    if text in FUNCTIONS:
                        open_paren(text, token)
                        skip_paren = True
                    else:
                        expect_operand = False
                elif text == "(":
                    open_paren("", token)
                elif text == "-":
                    ops.append(["neg", "neg", token, 0])
                elif text == "+":
                    pass  # unary plus changes nothing and makes no node
                elif text == ")" and ops and ops[-1][0] == "paren" and ops[-1][1] \
                        and tokens[i - 1].text == "(":
                    raise ExpressionError(f"{ops[-1][1]}() needs one argument, got none",
                                          token.line, token.col)
                else:
                    raise ExpressionError(
                        f"expected a number, a name or '(' but found {token.describe()}",
                        token.line, token.col)
            elif token.kind == OP and (text in BINARY or text in ("**", "^")):
                op = POW if text in ("**", "^") else text
                prec = _PREC[op]
                while ops and ops[-1][0] != "paren" and (
                        _PREC[ops[-1][1]] > prec
                        or (_PREC[ops[-1][1]] == prec and op not in _RIGHT_ASSOC)):
                    reduce_top()
                ops.append(["bin", op, token, 0])
                expect_operand = True
            elif text in (")", ","):
                while ops and ops[-1][0] != "paren":
                    reduce_top()
                if not ops or (text == "," and not ops[-1][1]):
                    raise ExpressionError(
                        "')' has no matching '('" if text == ")"
                        else "',' is only used between a function's arguments",
                        token.line, token.col)
                if text == ",":
                    ops[-1][3] += 1
                    expect_operand = True
                    continue
                _, function, where, commas = ops.pop()
                depth -= 1
                if function:
                    if commas:
                        raise ExpressionError(
                            f"{function}() takes one argument, got {commas + 1}",
                            where.line, where.col)
                    index, _first = operands.pop()
                    operands.append((build.emit(function, (index,), 0.0, where), where))
            elif token.kind in (SEP, END):
                while ops:
                    if ops[-1][0] == "paren":
                        _, function, where, _ = ops[-1]
                        what = f"{function}(" if function else "("
                        raise ExpressionError(f"'{what}' is never closed with ')'",
                                              where.line, where.col)
                    reduce_top()
                return operands[-1][0]
            else:
                raise ExpressionError(self._unexpected(tokens, i), token.line, token.col)
        raise AssertionError("a statement always ends with a separator")

    def _name_operand(self, tokens: list[Token], i: int, operands: list) -> None:
        """Push the node a name refers to; functions are opened by the caller."""
        token = tokens[i]
        text = token.text
        called = tokens[i + 1].text == "("
        if text in FUNCTIONS:
            if not called:
                raise ExpressionError(f"'{text}' is a function: write {text}(x)",
                                      token.line, token.col)
            return
        if called:
            known = "a name, not a function" if text in self.names else "not a known function"
            raise ExpressionError(
                f"'{text}' is {known}; the functions are {', '.join(FUNCTIONS)}",
                token.line, token.col)
        if text not in self.names:
            raise ExpressionError(f"'{text}' is not defined: assign it first (e.g. {text} = 1.0)",
                                  token.line, token.col)
        operands.append((self.names[text], token))

    @staticmethod
    def _unexpected(tokens: list[Token], i: int) -> str:
        token, before = tokens[i], tokens[i - 1]
        if token.text == "=":
            return "unexpected '=': a statement assigns one name, as in name = expression"
        if token.kind == NAME and before.kind == NUM:
            return (f"unexpected {token.describe()} after the number {before.text}: "
                    f"write {before.text}*{token.text} for a product")
        return f"expected an operator or the end of the statement, found {token.describe()}"
