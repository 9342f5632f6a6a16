"""What the Learn tab checks: a learner's formulas and answers, held against the engine.

Pure Python like the rest of `engine`: no Qt, and a learner's text is only ever read by
the expression language (never `eval`).
"""
