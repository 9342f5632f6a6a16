"""Input and output: reading and saving program files, importing graphs built by other
scalar engines (micrograd, microgpt)."""
