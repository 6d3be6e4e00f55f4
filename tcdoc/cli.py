"""The ``tcdoc`` command: ask your own torch what each copy method does.

Run ``tcdoc --help`` (or ``python -m tcdoc --help``) for the sub-commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import (
    MODULE_LABELS,
    MODULE_NOT_APPLICABLE,
    MODULE_OPERATION_NAMES,
    MODULE_SCENARIO_SUMMARY,
    NOT_APPLICABLE,
    OPERATION_NAMES,
    SCENARIO_NAMES,
    SHORT_LABELS,
    is_not_applicable,
    reason,
)

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
    matrix.add_argument(
        "--op", action="append", metavar="NAME", help="an operation, or a module-level one (repeatable)"
    )
    matrix.add_argument("--scenario", action="append", metavar="NAME", help="a scenario (repeatable)")
    matrix.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where sources are built")
    matrix.set_defaults(run=_matrix)

    explain = commands.add_parser(
        "explain", help="one operation across the scenarios, or every operation on one scenario, in words"
    )
    explain.add_argument(
        "name",
        help="an operation (detach_clone), a module-level operation (state_dict) or a scenario (sparse)",
    )
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
    if result.rows:
        _print_table(result.rows)
    if result.modules:
        if result.rows:
            print()
        _print_module_table(result.modules)
    return 0


def _print_table(rows: Sequence[tcdoc.ProbeResult]) -> None:
    header = ["operation", "scenario", *SHORT_LABELS.values()]
    table = [header]
    fields_by_reason: dict[str, set[str]] = {}
    for row in rows:
        if isinstance(row.outcome, tcdoc.ErrorInfo):
            cells = [f"raises {row.outcome.type}"]
        elif isinstance(row.outcome, tcdoc.NotRun):
            cells = [str(row.outcome)]
        else:
            values = row.outcome.as_dict()
            cells = [_text(values, field) for field in SHORT_LABELS]
            for field in SHORT_LABELS:
                if is_not_applicable(field, values):
                    why = str(reason(field, values))
                    fields_by_reason.setdefault(why, set()).add(field)
        table.append([row.operation, row.scenario, *cells])
    _print_columns(table)
    for why, fields in fields_by_reason.items():
        headings = ", ".join(repr(SHORT_LABELS[field]) for field in SHORT_LABELS if field in fields)
        print(f"# n/a under {headings}: {why}")


def _print_module_table(rows: Sequence[tcdoc.ModuleResult]) -> None:
    print(f"# module-level operations, on {rows[0].scenario} (x is the model, or the optimizer)")
    header = ["operation", *MODULE_LABELS.values()]
    table = [header]
    shown: set[str] = set()
    for row in rows:
        if isinstance(row.outcome, tcdoc.ErrorInfo):
            cells = [f"raises {row.outcome.type}"]
        else:
            values = row.outcome.as_dict()
            cells = [_module_text(values[field], field) for field in MODULE_LABELS]
            shown.update(field for field in MODULE_NOT_APPLICABLE if values[field] is None)
        table.append([row.operation, *cells])
    _print_columns(table)
    for field in (field for field in MODULE_NOT_APPLICABLE if field in shown):
        print(f"# n/a under {MODULE_LABELS[field]!r}: {MODULE_NOT_APPLICABLE[field]}")


def _print_columns(table: list[list[str]]) -> None:
    header = table[0]
    # A row that raised or was not run has fewer cells: its message runs on past its column.
    widths = [max(len(line[i]) for line in table if len(line) == len(header)) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)).rstrip())


def _explain(args: argparse.Namespace) -> int:
    # An operation's name wins over a scenario's of the same name ("cuda" is both).
    if args.name in MODULE_OPERATION_NAMES:
        return _explain_module(args)
    if args.name in SCENARIO_NAMES and args.name not in OPERATION_NAMES:
        return _explain_scenario(args)
    op = _guard(lambda: tcdoc.get_operation(args.name))
    result = _guard(lambda: tcdoc.matrix([op.name], None, args.device))
    print(f"{op.code}: {op.summary}")
    print(f"({result.environment})")
    for row in result.rows:
        scenario = tcdoc.get_scenario(row.scenario)
        print(f"\nOn {scenario.name}: {scenario.summary}")
        _print_answers(row)
    return 0


def _explain_scenario(args: argparse.Namespace) -> int:
    scenario = _guard(lambda: tcdoc.get_scenario(args.name))
    result = _guard(
        lambda: tcdoc.matrix([op.name for op in tcdoc.operations()], [scenario.name], args.device)
    )
    print(f"{scenario.name}: {scenario.summary}")
    print(f"({result.environment})")
    for row in result.rows:
        op = tcdoc.get_operation(row.operation)
        print(f"\ny = {op.code}: {op.summary}")
        _print_answers(row)
    return 0


def _print_answers(row: tcdoc.ProbeResult) -> None:
    if isinstance(row.outcome, tcdoc.ErrorInfo):
        print(f"  raises {row.outcome}")
    elif isinstance(row.outcome, tcdoc.NotRun):
        print(f"  {row.outcome}")
    else:
        for key, words in tcdoc.answers(row.outcome).items():
            print(f"  {tcdoc.QUESTIONS[key]:<20} {words}")
    for warning in row.warnings:
        print(f"  warns {warning}")


def _explain_module(args: argparse.Namespace) -> int:
    op = tcdoc.get_module_operation(args.name)
    result = _guard(lambda: tcdoc.matrix([op.name], [], args.device))
    (row,) = result.modules
    print(f"{op.code}: {op.summary}")
    print(f"({result.environment})")
    print(f"\nOn {row.scenario}: {MODULE_SCENARIO_SUMMARY}")
    print(f"x is the {op.source}.")
    if isinstance(row.outcome, tcdoc.ErrorInfo):
        print(f"  raises {row.outcome}")
    else:
        for key, words in tcdoc.module_answers(row.outcome, op.source).items():
            print(f"  {tcdoc.MODULE_QUESTIONS[key]:<20} {words}")
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


def _text(values: Mapping[str, object], field: str) -> str:
    """Write a table cell: yes, no, n/a (for a field that did not apply), or the value."""
    return cell(values[field], is_not_applicable(field, values))


def _module_text(value: object, field: str) -> str:
    return cell(value, value is None and field in MODULE_NOT_APPLICABLE)


def _shown(value: object, field: str) -> str:
    """Write a value in a line of ``tcdoc diff``: yes, no, n/a, or the value as Python writes it."""
    not_applicable = value is None and (field in NOT_APPLICABLE or field in MODULE_NOT_APPLICABLE)
    if isinstance(value, bool) or not_applicable:
        return cell(value, not_applicable)
    return repr(value)
