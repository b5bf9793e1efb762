"""``botao tables`` and ``botao tables show NAME``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from geometry.tablespec import TableSpec, list_tables, load_table


def add_parser(sub: Any) -> None:
    p = sub.add_parser("tables", help="list the built-in table specs, or show one")
    p.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    p.add_argument("name", nargs="?", help="preset name or path to a .toml table spec")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _row(t: TableSpec) -> str:
    return (
        f"{t.name:<11} {t.field_length:>6.0f} x {t.field_width:<5.0f} goal {t.goal_width:>4.0f}  "
        f"rules {t.rules or '-':<10} {t.description}"
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "show" or args.name:
        if not args.name:
            from monitor.errors import UsageError

            raise UsageError("tables show: give a table NAME (see 'botao tables')")
        t = load_table(args.name)
        if args.json:
            print(json.dumps(t.to_dict(), ensure_ascii=False, indent=2))
            return 0
        print(f"{t.name}: {t.description}")
        for key, value in t.to_dict().items():
            if key in ("name", "description", "sources"):
                continue
            src = t.sources.get(key, "")
            if isinstance(value, dict):
                value = f"{value['width']:g} x {value['depth']:g} (width x depth)"
            print(f"  {key:<28} {value!s:<28} {src}")
        return 0
    tables = list_tables()
    if args.json:
        print(json.dumps([t.to_dict() for t in tables], ensure_ascii=False))
        return 0
    for t in tables:
        print(_row(t))
    return 0
