"""The ``tcdoc`` command: ask your own torch what each copy method does.

Run ``tcdoc --help`` (or ``python -m tcdoc --help``) for the sub-commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import tcdoc
from tcdoc._names import LABELS, NOT_APPLICABLE, SHORT_LABELS

__all__ = ["main"]

USAGE_ERROR = 2


class _UsageError(Exception):
    """A bad argument from the user: reported in one line with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status.

    Output to a pipe that closes early (``tcdoc diff a.json b.json | head``) ends the command
    quietly, with exit status 1 and no traceback.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return result
    except _UsageError as exc:
        print(f"tcdoc {args.command}: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    """Point stdout at the null device, so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (captured in tests, say)
        pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tcdoc",
        description="What clone(), detach(), copy.deepcopy and their look-alikes do, asked of this torch.",
    )
    parser.add_argument("--version", action="version", version=f"tcdoc {tcdoc.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    matrix = commands.add_parser("matrix", help="probe operations on scenarios and print the results")
    matrix.add_argument(
        "--json",
        action="store_true",
        help="print JSON instead of a table (its 'schema' key numbers the layout)",
    )
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
    not_applicable: set[str] = set()
    for row in result.rows:
        if isinstance(row.outcome, tcdoc.ErrorInfo):
            cells = [f"raises {row.outcome.type}"]
        elif isinstance(row.outcome, tcdoc.NotRun):
            cells = [str(row.outcome)]
        else:
            values = row.outcome.as_dict()
            cells = [_text(values[field], field) for field in SHORT_LABELS]
            not_applicable.update(field for field in NOT_APPLICABLE if values[field] is None)
        table.append([row.operation, row.scenario, *cells])
    # A row that raised or was not run has fewer cells: its message runs on past its column.
    widths = [max(len(line[i]) for line in table if len(line) == len(header)) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)).rstrip())
    for field in sorted(not_applicable, key=list(NOT_APPLICABLE).index):
        print(f"# n/a under {SHORT_LABELS[field]!r}: {NOT_APPLICABLE[field]}, so there was nothing to copy")
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
        elif isinstance(row.outcome, tcdoc.NotRun):
            print(f"  {row.outcome}")
        else:
            for key, words in tcdoc.answers(row.outcome).items():
                print(f"  {tcdoc.QUESTIONS[key]:<20} {words}")
        for warning in row.warnings:
            print(f"  warns {warning}")
    return 0


def _diff(args: argparse.Namespace) -> int:
    old, new = _load(args.old), _load(args.new)
    changes = tcdoc.diff(old, new)
    print(f"# old: torch {old.environment.torch} on {old.environment.device} (schema {old.schema})")
    print(f"# new: torch {new.environment.torch} on {new.environment.device} (schema {new.schema})")
    if 1 in (old.schema, new.schema):
        fields = " and ".join(repr(LABELS[field]) for field in NOT_APPLICABLE)
        print(
            f"# schema 1 wrote 'no' where {fields} did not apply; "
            "'no' against 'n/a' there is not counted as a change"
        )
    if not changes:
        print("no differences")
    for change in changes:
        where = f"{change.operation} / {change.scenario} / {change.field}"
        print(f"{where}: {_shown(change.old, change.field)} -> {_shown(change.new, change.field)}")
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


def _text(value: object, field: str = "") -> str:
    """Write a table cell: yes, no, n/a (for a field that did not apply), or the value."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "n/a" if field in NOT_APPLICABLE else "-"
    return str(value)


def _shown(value: object, field: str) -> str:
    """Write a value in a line of ``tcdoc diff``: yes, no, n/a, or the value as Python writes it."""
    if isinstance(value, bool) or (value is None and field in NOT_APPLICABLE):
        return _text(value, field)
    return repr(value)
