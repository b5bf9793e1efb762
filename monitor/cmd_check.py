"""``botao check SCENE.json [MORE.json ...] --rules NAME [--json] [--svg OUT.svg]``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from geometry.scene import Scene, SceneError, load_scene
from geometry.tablespec import TableSpec, TableSpecError, load_table
from monitor.errors import UsageError
from rules.check import run_checks
from rules.checks import CheckContext
from rules.rulesets import RuleSet, get_ruleset
from rules.verdict import Verdict


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="judge scene/1 files under a rule set: verdicts with margins and articles",
    )
    p.add_argument("scenes", nargs="+", metavar="SCENE.json")
    p.add_argument(
        "--rules", required=True, help="nacional, brasileira, gaucha, paulista, mesa-posta"
    )
    p.add_argument("--table", help="override the scene's table: a preset name or a .toml path")
    p.add_argument("--json", action="store_true", help="verdicts/1, one document per line")
    p.add_argument("--svg", metavar="OUT.svg", help="draw the evidence top-down")
    p.add_argument("--all", action="store_true", help="show every verdict in the table view")
    p.set_defaults(func=run)


def verdicts_document(
    scene: Scene, rules: RuleSet, table: TableSpec, verdicts: list[Verdict]
) -> dict[str, Any]:
    return {
        "format": "verdicts/1",
        "rules": rules.name,
        "table": table.name,
        "scene": scene.source,
        "verdicts": [v.to_dict() for v in verdicts],
    }


def _subject(v: Verdict) -> str:
    return v.piece or v.team or ""


def _interesting(v: Verdict) -> bool:
    """The table view hides per-piece verdicts that hold false by a wide margin."""
    if v.piece is None or v.holds is None or v.holds:
        return True
    return v.margin_mm is not None and abs(v.margin_mm) < 20.0


def format_table(doc_source: str, verdicts: list[Verdict], show_all: bool) -> str:
    lines = [f"{doc_source}"]
    lines.append(f"  {'check':<24} {'subject':<8} {'holds':<6} {'margin mm':>10}  article / detail")
    hidden = 0
    for v in verdicts:
        if not show_all and not _interesting(v):
            hidden += 1
            continue
        holds = "-" if v.holds is None else ("YES" if v.holds else "no")
        margin = "" if v.margin_mm is None else f"{v.margin_mm:+.2f}"
        lines.append(
            f"  {v.check:<24} {_subject(v):<8} {holds:<6} {margin:>10}  {v.article}: {v.detail}"
        )
    if hidden:
        lines.append(
            f"  ({hidden} per-piece verdicts far from their limit hidden; --all shows them)"
        )
    return "\n".join(lines)


def _svg_path(base: str, scene_path: str, many: bool) -> Path:
    out = Path(base)
    if not many:
        return out
    return out.with_name(f"{out.stem}-{Path(scene_path).stem}{out.suffix or '.svg'}")


def run(args: argparse.Namespace) -> int:
    rules = get_ruleset(args.rules)
    override = load_table(args.table) if args.table else None
    contexts: dict[str, tuple[TableSpec, CheckContext]] = {}
    status = 0
    many = len(args.scenes) > 1
    for path in args.scenes:
        try:
            scene = load_scene(path)
            if override is not None:
                table = override
            else:
                try:
                    table = load_table(scene.table)
                except TableSpecError as exc:
                    raise SceneError(f"{path}: table: {exc}") from None
            if table.name not in contexts:
                contexts[table.name] = (table, CheckContext.build(table, rules))
            table, ctx = contexts[table.name]
            from geometry.scene import check_physical

            check_physical(scene, table)
        except (SceneError, TableSpecError) as exc:
            # One bad file does not lose the others: report it, carry on, exit 2 at the end.
            print(f"botao: error: {exc}", file=sys.stderr)
            status = 2
            continue
        verdicts = run_checks(scene, rules, table, ctx)
        if args.json:
            doc = verdicts_document(scene, rules, table, verdicts)
            sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
        else:
            print(format_table(f"{path} ({rules.name} on {table.name})", verdicts, args.all))
        if args.svg:
            from monitor.svg import scene_svg

            out = _svg_path(args.svg, path, many)
            try:
                out.write_text(scene_svg(scene, ctx, verdicts), "utf-8")
            except OSError as exc:
                raise UsageError(f"--svg {out}: cannot write ({exc.strerror})") from None
        sys.stdout.flush()
    return status
