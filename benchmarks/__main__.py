"""Run every benchmark module (or those named on the command line) and print its report."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import benchmarks


def main(names: list[str]) -> int:
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
