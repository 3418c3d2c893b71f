"""Run every benchmark module (or those named on the command line) and print its report.
`--scale 10000,100000,1000000` sets the record counts the scale benchmarks run at."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time

import benchmarks


def main(names: list[str]) -> int:
    if "--scale" in names:
        at = names.index("--scale")
        if at + 1 >= len(names):
            print("--scale needs a list of record counts, e.g. --scale 10000,100000")
            return 1
        os.environ["BENCH_SCALES"] = names[at + 1]
        names = names[:at] + names[at + 2 :]
    modules = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    chosen = [m for m in modules if not names or m.removeprefix("bench_") in names or m in names]
    if not chosen:
        print(f"no benchmark matches {names}; have: {', '.join(modules) or 'none'}")
        return 1
    for name in chosen:
        started = time.perf_counter()
        print(f"== {name}", flush=True)
        module = importlib.import_module(f"benchmarks.{name}")
        for line in module.run():
            print(f"   {line}", flush=True)
        print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
