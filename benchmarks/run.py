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

SECTIONS = [
    "benchmarks.bench_checks",
    "benchmarks.bench_gabarito",
    "benchmarks.bench_simulator",
    "benchmarks.bench_calibration",
    "benchmarks.bench_drift",
]
SECTIONS += ["benchmarks.bench_detect", "benchmarks.bench_still_balls", "benchmarks.bench_track"]
SECTIONS += ["benchmarks.bench_engine", "benchmarks.bench_offside", "benchmarks.bench_analyze"]
SECTIONS += ["benchmarks.bench_goalline", "benchmarks.bench_live"]


def _blocks(text: str) -> dict[str, list[str]]:
    """The sections of an existing RESULTS.md, by module (each starts with its marker)."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("<!-- benchmarks."):
            current = blocks.setdefault(line[5:-4], [])
        if current is not None:
            current.append(line)
    return blocks


def main(argv: list[str]) -> int:
    """Run the named sections (all when none); the others keep their last figures."""
    only = set(argv)
    unknown = only - {name.rsplit(".", 1)[-1] for name in SECTIONS}
    if unknown:
        print(f"benchmarks.run: unknown section {sorted(unknown)[0]!r}", file=sys.stderr)
        return 2
    out = Path(__file__).with_name("RESULTS.md")
    fresh: dict[str, list[str]] = {}
    for name in SECTIONS:
        if only and name.rsplit(".", 1)[-1] not in only:
            continue
        mod = importlib.import_module(name)
        print(f"running {name} ...", file=sys.stderr, flush=True)
        report = [f"<!-- {name} -->", *mod.report()]
        while report[-1] == "":
            report.pop()
        fresh[name] = [*report, f"Measured {time.strftime('%Y-%m-%d')}.", ""]
    # The other sections as the file has them now (another run may have written some since).
    kept = _blocks(out.read_text("utf-8")) if out.exists() else {}
    lines = [
        "# Benchmark results",
        "",
        "Written by `python -m benchmarks.run [SECTION ...]` on a machine like CI's: "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "Each section names the date it was measured; a partial run keeps the others.",
        "",
    ]
    for name in SECTIONS:
        lines += fresh[name] if name in fresh else kept.get(name, [])
    out.write_text("\n".join(lines).rstrip("\n") + "\n", "utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
