"""The expression language: text in, `Program` out, never through Python's `eval`.

Each statement is parsed by operator precedence with explicit stacks (no recursion, so
deep nesting cannot exhaust Python's stack), and every node is built and checked the
moment it is parsed, so an error names the token that caused it.
"""

from __future__ import annotations

import keyword

from engine._gc import collector_paused
from engine.core.value import Value
from engine.errors import ExpressionError, shorten
from engine.language.program import (
    CONST,
    FUNCTIONS,
    INPUT,
    NEG,
    POW,
    POW_INPUT,
    Instruction,
    Program,
    apply_instruction,
)
from engine.language.tokens import END, NAME, NUM, OP, SEP, Lines, Token, describe_token, tokenize

MAX_CHARS = 1_000_000
MAX_DEPTH = 200
MAX_NODES = 200_000

# binding power of each operator; unary minus binds looser than ** (-x**2 is -(x**2))
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, NEG: 3, POW: 4}
_RIGHT_ASSOC = {POW}
_BINARY_TOKENS = frozenset(("+", "-", "*", "/", "**", "^"))
_NODE_OPERATORS = frozenset(("*", "/", "**", "^"))


class _Builder:
    """Collects instructions and builds their Values as they arrive."""

    def __init__(self, lines: Lines):
        self.lines = lines
        self.instructions: list[Instruction] = []
        self.values: list[Value] = []
        self.variable: list[bool] = []  # does the node depend on an input?

    def emit(self, op: str, args: tuple[int, ...], number: float, token: Token) -> int:
        values = self.values
        if len(values) >= MAX_NODES:
            raise self.lines.error(f"the program is too large: more than {MAX_NODES:,} nodes",
                                   token)
        ins = Instruction(op, args, number, *self.lines.locate(token[2]))
        if op == INPUT or op == CONST:
            value = Value(number)
            variable = op == INPUT
        else:
            value = apply_instruction(ins, [values[a] for a in args])
            variable = False
            for a in args:
                if self.variable[a]:
                    variable = True
                    break
        self.instructions.append(ins)
        values.append(value)
        self.variable.append(variable)
        return len(values) - 1


def _number(token: Token, lines: Lines, sign: str = "") -> float:
    x = float(sign + token[1])
    if x in (float("inf"), float("-inf")):
        raise lines.error(f"the number {shorten(token[1])} is too large to represent", token)
    return x


def _makes_no_node(tokens: list[Token], i: int) -> bool:
    """Whether the '+' or '-' at `i` is unary plus or the sign of an input's literal."""
    kind, text, _ = tokens[i - 1] if i else (SEP, "", 0)
    if kind == NUM or text == ")" or (kind == NAME and text not in FUNCTIONS):
        return False  # a binary operator
    if tokens[i][1] == "+":
        return True
    return (text == "=" and i >= 2 and tokens[i - 2][0] == NAME
            and (i == 2 or tokens[i - 3][0] == SEP)
            and tokens[i + 1][0] == NUM and tokens[i + 2][0] in (SEP, END))


def node_tokens(tokens: list[Token]):
    """Yield the index of every token that makes a graph node when the program is built.

    Every number, operator and function call makes one node, except unary plus and the
    sign of an input's literal; names refer to nodes that exist already.
    """
    for i, (kind, text, _) in enumerate(tokens):
        if kind == NUM or (kind == NAME and text in FUNCTIONS) or text in _NODE_OPERATORS:
            yield i
        elif (text == "+" or text == "-") and not _makes_no_node(tokens, i):
            yield i


def _check_node_count(tokens: list[Token], lines: Lines) -> None:
    """Refuse a program of more than MAX_NODES nodes before building any of them."""
    for count, i in enumerate(node_tokens(tokens), start=1):
        if count > MAX_NODES:
            raise lines.error(f"the program is too large: more than {MAX_NODES:,} nodes",
                              tokens[i])


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
    with collector_paused():  # the graph is built node by node as the text is read
        return _Parser(text).run()


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.lines = Lines(text)
        self.build = _Builder(self.lines)
        self.names: dict[str, int] = {}
        self.assigned_at: dict[str, int] = {}

    def error(self, message: str, token: Token) -> ExpressionError:
        return self.lines.error(message, token)

    def run(self) -> Program:
        output: tuple[int, str] | None = None
        bare: Token | None = None  # start of a bare expression, legal only if last
        for statement in self._statements():
            if bare is not None:
                raise self.error(
                    "an expression without a name is only allowed as the last statement "
                    "(it is the output); give it a name: name = ...", bare)
            if statement[0][0] == NAME and statement[1][1] == "=":
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
        start = 0
        tokens = tokenize(self.text, self.lines)
        _check_node_count(tokens, self.lines)
        for i, token in enumerate(tokens):
            kind = token[0]
            if kind == SEP or kind == END:
                if i > start:
                    yield tokens[start:i + 1]
                start = i + 1

    def _assignment(self, statement: list[Token]) -> tuple[int, str]:
        target, equals, rhs = statement[0], statement[1], statement[2:]
        name = target[1]
        if name in FUNCTIONS:
            raise self.error(f"'{name}' is a function and cannot be assigned to", target)
        if name in self.names:
            raise self.error(f"'{shorten(name)}' is already assigned on line "
                             f"{self.assigned_at[name]}; each name is assigned once", target)
        if rhs[0][0] in (SEP, END):
            raise self.error(f"nothing after '=': give '{shorten(name)}' a number or an expression",
                             equals)
        sign = rhs[0][1] if rhs[0][1] in ("+", "-") else ""
        literal = rhs[1:] if sign else rhs
        if len(literal) == 2 and literal[0][0] == NUM:
            index = self.build.emit(INPUT, (), _number(literal[0], self.lines, sign), target)
        else:
            index = self._expression(rhs)
        value = self.build.values[index]
        if not value.label:  # otherwise `name = other` is an alias of an existing node
            value.label = name
        self.names[name] = index
        self.assigned_at[name] = self.lines.locate(target[2])[0]
        return index, name

    def _expression(self, tokens: list[Token]) -> int:
        """Parse one expression (tokens end with SEP/END) and return its node's index."""
        build = self.build
        emit = build.emit
        operands: list[tuple[int, Token]] = []  # (node index, first token of the operand)
        # operator stack: [kind, op, token, commas]; kind is "bin", NEG or "paren";
        # a paren's op is the name of the function it calls, or ""
        ops: list[list] = []
        depth = 0
        expect_operand = True

        def reduce_top() -> None:
            kind, op, token, _ = ops.pop()
            if kind == NEG:
                index, _first = operands.pop()
                operands.append((emit(NEG, (index,), 0.0, token), token))
                return
            right, _right_first = operands.pop()
            left, left_first = operands.pop()
            if op == POW:
                if build.variable[right]:  # x**y: the base must be positive (x^y·ln x)
                    index = emit(POW_INPUT, (left, right), 0.0, token)
                else:  # a number exponent, folded into the node as today
                    index = emit(POW, (left,), build.values[right].data, token)
            else:
                index = emit(op, (left, right), 0.0, token)
            operands.append((index, left_first))

        def open_paren(function: str, token: Token) -> None:
            nonlocal depth
            depth += 1
            if depth > MAX_DEPTH:
                raise self.error(f"nesting is deeper than {MAX_DEPTH} levels of parentheses",
                                 token)
            ops.append(["paren", function, token, 0])

        skip_paren = False  # the '(' right after a function name was already opened
        for i, token in enumerate(tokens):
            kind, text, _ = token
            if skip_paren:
                skip_paren = False
                continue
            if expect_operand:
                if kind == NUM:
                    operands.append((emit(CONST, (), _number(token, self.lines), token), token))
                    expect_operand = False
                elif kind == NAME:
                    if text in FUNCTIONS:
                        self._check_call(tokens, i)
                        open_paren(text, token)
                        skip_paren = True
                    else:
                        operands.append((self._lookup(tokens, i), token))
                        expect_operand = False
                elif text == "(":
                    open_paren("", token)
                elif text == "-":
                    ops.append([NEG, NEG, token, 0])
                elif text == "+":
                    pass  # unary plus changes nothing and makes no node
                elif text == ")" and ops and ops[-1][1] and tokens[i - 1][1] == "(":
                    raise self.error(f"{ops[-1][1]}() needs one argument, got none", token)
                else:
                    raise self.error("expected a number, a name or '(' but found "
                                     f"{describe_token(token)}", token)
            elif kind == OP and text in _BINARY_TOKENS:
                op = POW if text in ("**", "^") else text
                prec = _PREC[op]
                while ops and ops[-1][0] != "paren" and (
                        _PREC[ops[-1][1]] > prec
                        or (_PREC[ops[-1][1]] == prec and op not in _RIGHT_ASSOC)):
                    reduce_top()
                ops.append(["bin", op, token, 0])
                expect_operand = True
            elif text == ")" or text == ",":
                while ops and ops[-1][0] != "paren":
                    reduce_top()
                if not ops or (text == "," and not ops[-1][1]):
                    raise self.error(
                        "')' has no matching '('" if text == ")"
                        else "',' is only used between a function's arguments", token)
                if text == ",":
                    ops[-1][3] += 1
                    expect_operand = True
                    continue
                _, function, where, commas = ops.pop()
                depth -= 1
                if function:
                    if commas:
                        raise self.error(f"{function}() takes one argument, got {commas + 1}",
                                         where)
                    index, _first = operands.pop()
                    operands.append((emit(function, (index,), 0.0, where), where))
            elif kind == SEP or kind == END:
                while ops:
                    if ops[-1][0] == "paren":
                        _, function, where, _ = ops[-1]
                        what = f"{function}(" if function else "("
                        raise self.error(f"'{what}' is never closed with ')'", where)
                    reduce_top()
                return operands[-1][0]
            else:
                raise self.error(self._unexpected(tokens, i), token)
        raise AssertionError("a statement always ends with a separator")

    def _check_call(self, tokens: list[Token], i: int) -> None:
        name = tokens[i][1]
        if tokens[i + 1][1] != "(":
            raise self.error(f"'{name}' is a function: write {name}(x)", tokens[i])

    def _lookup(self, tokens: list[Token], i: int) -> int:
        """The node a name refers to."""
        token = tokens[i]
        name = token[1]
        if tokens[i + 1][1] == "(":
            known = "a name, not a function" if name in self.names else "not a known function"
            raise self.error(
                f"'{shorten(name)}' is {known}; the functions are {', '.join(FUNCTIONS)}", token)
        if name not in self.names and keyword.iskeyword(name):
            raise self.error(f"'{name}' is Python, not part of the expression language: it "
                             "has names, numbers, + - * / ** and the functions "
                             f"{', '.join(FUNCTIONS)} (README: The expression language)",
                             token)
        if name not in self.names:
            raise self.error(f"'{shorten(name)}' is not defined: assign it first "
                             f"(e.g. {name if len(name) <= 20 else 'name'} = 1.0)",
                             token)
        return self.names[name]

    def _unexpected(self, tokens: list[Token], i: int) -> str:
        (kind, text, _), before = tokens[i], tokens[i - 1]
        if text == "=":
            return "unexpected '=': a statement assigns one name, as in name = expression"
        if kind == NAME and before[0] == NUM and (text in self.names or text in FUNCTIONS):
            number, name = shorten(before[1], 30), shorten(text, 30)
            return (f"unexpected '{name}' after the number {number}: "
                    f"write {number}*{name} for a product")
        return ("expected an operator or the end of the statement, found "
                f"{describe_token(tokens[i])}")
