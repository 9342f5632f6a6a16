"""The lesson's content built on the core: the Rules check, the forward/reverse timing,
the XOR network and its history, the report, and the Learn tab's exercises."""
