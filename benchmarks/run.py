"""Run every benchmark and write ``benchmarks/RESULTS.md``: ``python -m benchmarks.run``.

Figures are medians measured on the machine that runs it; compare ratios from one run.
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
import time
from pathlib import Path

SECTIONS = ["benchmarks.bench_checks", "benchmarks.bench_gabarito", "benchmarks.bench_simulator"]


def main(argv: list[str]) -> int:
    only = set(argv)
    out = Path(__file__).with_name("RESULTS.md")
    lines = [
        "# Benchmark results",
        "",
        f"Written by `python -m benchmarks.run` on {time.strftime('%Y-%m-%d')}: "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "",
    ]
    for name in SECTIONS:
        if only and name.rsplit(".", 1)[-1] not in only:
            continue
        mod = importlib.import_module(name)
        print(f"running {name} ...", file=sys.stderr, flush=True)
        lines += mod.report()
    out.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
