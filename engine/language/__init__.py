"""The expression language: a tokenizer, a parser and the Program it builds."""

from engine.language.parser import MAX_CHARS, MAX_DEPTH, MAX_NODES, parse
from engine.language.program import FUNCTIONS, Instruction, Program

__all__ = ["FUNCTIONS", "MAX_CHARS", "MAX_DEPTH", "MAX_NODES", "Instruction", "Program", "parse"]
