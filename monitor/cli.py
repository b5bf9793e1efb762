"""``botao``: the command line of the monitor (INTERFACES.md).

Every command prints bad input as one line ``botao: error: ...`` naming the file, field or value,
and exits 2. Set ``BOTAO_DEBUG=1`` to see the traceback of an unexpected error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from monitor import (
    cmd_analyze,
    cmd_calibrate,
    cmd_check,
    cmd_detect,
    cmd_goalline,
    cmd_live,
    cmd_simulate,
    cmd_tables,
    cmd_track,
)
from monitor.errors import BAD_INPUT

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="botao",
        description="Referee assistant for futebol de botão: table geometry, rule checks, vision.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    cmd_tables.add_parser(sub)
    cmd_check.add_parser(sub)
    cmd_simulate.add_parsers(sub)
    cmd_calibrate.add_parsers(sub)
    cmd_detect.add_parsers(sub)
    cmd_track.add_parsers(sub)
    cmd_analyze.add_parsers(sub)
    cmd_goalline.add_parsers(sub)
    cmd_live.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 a refusal, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed its one-line usage error
        return int(exc.code) if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args))
    except BAD_INPUT as exc:
        print(f"botao: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (e.g. `head`) went away: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("botao: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a traceback for a user; one line that says what broke
        if os.environ.get("BOTAO_DEBUG"):
            raise
        print(f"botao: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
