"""The Learn tab's six exercises, one module each, in the lesson's order."""
