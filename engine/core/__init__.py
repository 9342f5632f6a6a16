"""The engine's core: `Value` and the op table, stepping the passes, the engine variants
(the correct one and each classic bug), forward mode and the inspector's explanations."""
