"""The ``tcdoc`` command: ask your own torch what each copy method does.

Run ``tcdoc --help`` (or ``python -m tcdoc --help``) for the sub-commands.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import tcdoc
from tcdoc._names import SHORT_LABELS

__all__ = ["main"]

USAGE_ERROR = 2


class _UsageError(Exception):
    """A bad argument from the user: reported in one line with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
        return result
    except _UsageError as exc:
        print(f"tcdoc {args.command}: error: {exc}", file=sys.stderr)
        return USAGE_ERROR


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tcdoc",
        description="What clone(), detach(), copy.deepcopy and their look-alikes do, asked of this torch.",
    )
    parser.add_argument("--version", action="version", version=f"tcdoc {tcdoc.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    matrix = commands.add_parser("matrix", help="probe operations on scenarios and print the results")
    matrix.add_argument("--json", action="store_true", help="print JSON (schema 1) instead of a table")
    matrix.add_argument("--op", action="append", metavar="NAME", help="an operation (repeatable)")
    matrix.add_argument("--scenario", action="append", metavar="NAME", help="a scenario (repeatable)")
    matrix.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where sources are built")
    matrix.set_defaults(run=_matrix)

    explain = commands.add_parser("explain", help="one operation in plain words across the scenarios")
    explain.add_argument("name", help="an operation name, such as detach_clone")
    explain.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where sources are built")
    explain.set_defaults(run=_explain)

    diff = commands.add_parser("diff", help="the cells that differ between two saved matrices")
    diff.add_argument("old", type=Path, help="a JSON file from 'tcdoc matrix --json'")
    diff.add_argument("new", type=Path, help="another such file, say from a newer torch")
    diff.set_defaults(run=_diff)

    bench = commands.add_parser("bench", help="time each copy method against tensor size (needs quiet)")
    bench.add_argument("--out", type=Path, required=True, help="where to write the JSON results")
    bench.add_argument(
        "--full",
        action="store_true",
        help="every method from 1 KiB to 256 MiB (default: the docs' small sweep's sizes and methods)",
    )
    bench.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where tensors are made")
    bench.add_argument(
        "--min-run-time", type=float, default=None, help="seconds to time each method at each size, at least"
    )
    bench.add_argument("--blocks", type=int, default=20, help="timed blocks per method and size (5 or more)")
    bench.add_argument("--threads", type=int, default=None, help="torch threads per call (default: torch's)")
    bench.set_defaults(run=_bench)
    return parser


def _matrix(args: argparse.Namespace) -> int:
    result = _guard(lambda: tcdoc.matrix(args.op, args.scenario, args.device))
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
        return 0
    print(f"# {result.environment}")
    header = ["operation", "scenario", *SHORT_LABELS.values()]
    table = [header]
    for row in result.rows:
        if isinstance(row.outcome, tcdoc.ErrorInfo):
            cells = [f"raises {row.outcome.type}"]
        else:
            values = row.outcome.as_dict()
            cells = [_text(values[field]) for field in SHORT_LABELS]
        table.append([row.operation, row.scenario, *cells])
    widths = [max(len(line[i]) for line in table if i < len(line)) for i in range(len(header))]
    for line in table:
        # An error row has fewer cells than the header: it stops after its message.
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)).rstrip())
    return 0


def _explain(args: argparse.Namespace) -> int:
    op = _guard(lambda: tcdoc.get_operation(args.name))
    result = _guard(lambda: tcdoc.matrix([op.name], None, args.device))
    print(f"{op.code}: {op.summary}")
    print(f"({result.environment})")
    for row in result.rows:
        scenario = tcdoc.get_scenario(row.scenario)
        print(f"\nOn {scenario.name}: {scenario.summary}")
        if isinstance(row.outcome, tcdoc.ErrorInfo):
            print(f"  raises {row.outcome}")
        else:
            for key, words in tcdoc.answers(row.outcome).items():
                print(f"  {tcdoc.QUESTIONS[key]:<20} {words}")
        for warning in row.warnings:
            print(f"  warns {warning}")
    return 0


def _diff(args: argparse.Namespace) -> int:
    old, new = _load(args.old), _load(args.new)
    changes = tcdoc.diff(old, new)
    print(f"# old: torch {old.environment.torch} on {old.environment.device}")
    print(f"# new: torch {new.environment.torch} on {new.environment.device}")
    if not changes:
        print("no differences")
    for change in changes:
        print(f"{change.operation} / {change.scenario} / {change.field}: {change.old!r} -> {change.new!r}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    import tcdoc.bench  # torch.utils.benchmark comes with it: only this command needs it

    min_run_time = args.min_run_time if args.min_run_time is not None else (0.5 if args.full else 0.1)
    sizes = tcdoc.bench.FULL_SIZES if args.full else tcdoc.bench.SMALL_SIZES
    methods = tcdoc.bench.METHODS if args.full else tcdoc.bench.SMALL_METHODS
    sweep = _guard(
        lambda: tcdoc.bench.run(
            sizes=sizes,
            methods=methods,
            device=args.device,
            min_run_time=min_run_time,
            blocks=args.blocks,
            threads=args.threads,
        )
    )
    try:
        args.out.write_text(sweep.to_json() + "\n", encoding="utf-8")
    except OSError as exc:
        raise _UsageError(f"cannot write {args.out}: {exc.strerror}") from exc
    print(repr(sweep))
    print(sweep.headline())
    print(repr(tcdoc.bench.findings(sweep)))
    print(f"Wrote {args.out}")
    return 0


def _load(path: Path) -> tcdoc.Matrix:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise _UsageError(f"{path} is not valid JSON: {exc}") from exc
    return _guard(lambda: tcdoc.Matrix.from_json(data), prefix=f"{path}: ")


T = TypeVar("T")


def _guard(call: Callable[[], T], prefix: str = "") -> T:
    try:
        return call()
    except (TypeError, ValueError) as exc:
        raise _UsageError(prefix + str(exc)) from exc


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "-" if value is None else str(value)
