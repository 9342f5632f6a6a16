"""A big graph's groups: the model's names, single-output pieces, repeated instances.

See model.py for the records every part of the window shares (`GraphArrays`, `Group`,
`Grouping`, `Quotient`). Qt-free: grouping runs in a child process for big graphs.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).
