"""Benchmarks, run by `make bench`. Each `bench_*.py` module has a `run() -> list[str]` that
measures against a baseline in the same run and returns the lines to print (ratios, never
absolute thresholds); an iterator of lines is printed as it goes."""
