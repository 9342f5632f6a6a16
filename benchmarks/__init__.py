"""Speed and scale measurements (not tests): `python -m benchmarks`."""
