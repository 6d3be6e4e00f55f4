"""The ``tcdoc`` command: ask your own torch what each copy method does.

Run ``tcdoc --help`` (or ``python -m tcdoc --help``) for the sub-commands.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import (
    GRAD_MODES,
    MODULE_LABELS,
    MODULE_NOT_APPLICABLE,
    MODULE_OPERATION_NAMES,
    MODULE_SCENARIO,
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


DIFFERENT = 1
"""The exit status of ``tcdoc diff`` where the two matrices differ (``diff``'s own)."""


class _UsageError(Exception):
    """A bad argument from the user: reported on stderr with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status.

    0 where the command did what was asked, 1 where ``tcdoc diff`` found differences (as
    ``diff`` does), 2 for a bad argument or file. Output to a pipe that closes early
    (``tcdoc matrix | head -1``) ends the command quietly, with no traceback and the status it
    had settled on: 0, or 1 from ``tcdoc diff`` where the matrices differ.
    """
    parser = _parser()
    command = "tcdoc"
    status = _Status()
    try:
        args, extra = parser.parse_known_args(argv)  # --help writes here, and may meet a closed pipe too
        if extra:  # the sub-command's own usage, not the top level's
            args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
        command = f"tcdoc {args.command}"
        args.status = status
        status.code = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status.code
    except _UsageError as exc:
        try:
            print(f"{command}: error: {exc}", file=sys.stderr, flush=True)
        except BrokenPipeError:  # tcdoc ... 2>&1 | head -1: the status still says what went wrong
            _silence("stderr")
        return USAGE_ERROR
    except BrokenPipeError:
        _silence("stdout")
        return status.code


class _Status:
    """The exit status a command has settled on, kept for when its output meets a closed pipe."""

    code = 0


def _silence(name: str) -> None:
    """Point ``sys.stdout`` or ``sys.stderr`` (``name``) at the null device: flushing cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, getattr(sys, name).fileno())
    except (OSError, ValueError):  # the stream is not a real file (captured in tests, say)
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
        "--op", action=_AppendOnce, metavar="NAME", help="an operation, or a module-level one (repeatable)"
    )
    matrix.add_argument(
        "--scenario",
        action=_AppendOnce,
        metavar="NAME",
        help=f"a scenario, or {MODULE_SCENARIO} for the module-level operations (repeatable)",
    )
    matrix.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where sources are built")
    matrix.add_argument(
        "--grad-mode",
        action="append",
        choices=GRAD_MODES,
        help="run the tensor operations under this grad mode (repeatable; default: all three)",
    )
    matrix.set_defaults(run=_matrix, parser=matrix)

    explain = commands.add_parser(
        "explain", help="one operation across the scenarios, or every operation on one scenario, in words"
    )
    explain.add_argument(
        "name",
        help=(
            "an operation (detach_clone): it on every scenario; a module-level operation (state_dict): "
            "its row; a scenario (sparse): every operation on it; "
            f"{MODULE_SCENARIO}: every module-level operation"
        ),
    )
    explain.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where sources are built")
    explain.add_argument(
        "--grad-mode",
        action=_Once,
        choices=GRAD_MODES,
        help="run the tensor operations under this grad mode (default: enabled)",
    )
    explain.set_defaults(run=_explain, parser=explain)

    names = commands.add_parser("names", help="every operation, module-level operation and scenario")
    names.set_defaults(run=_names, parser=names)

    diff = commands.add_parser("diff", help="the cells that differ between two saved matrices")
    diff.add_argument("old", type=Path, help="a JSON file from 'tcdoc matrix --json'")
    diff.add_argument("new", type=Path, help="another such file, say from a newer torch")
    diff.set_defaults(run=_diff, parser=diff)

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
    bench.set_defaults(run=_bench, parser=bench)
    return parser


class _Once(argparse.Action):
    """Store an option's value, and refuse the option given twice: only one value can be honoured."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, self.dest) is not None:
            raise argparse.ArgumentError(self, "given twice: name one value")
        setattr(namespace, self.dest, values)


class _AppendOnce(argparse.Action):
    """Like ``action="append"``, but a value given twice is taken once, where it first came."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        taken = list(getattr(namespace, self.dest) or [])
        if values not in taken:
            taken.append(values)
        setattr(namespace, self.dest, taken)


# -- Names ----------------------------------------------------------------------------------

_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "operation": ("operations", OPERATION_NAMES),
    "module-level operation": ("module-level operations", MODULE_OPERATION_NAMES),
    "scenario": ("scenarios", (*SCENARIO_NAMES, MODULE_SCENARIO)),
}
"""Each kind of name the command takes: its plural, and its names (torch-free, CUDA ones included)."""

_ARTICLES = {"operation": "an", "module-level operation": "a", "scenario": "a"}


def _kinds_of(name: str) -> list[str]:
    """Return the kinds of name that ``name`` is (``"cuda"`` is an operation and a scenario)."""
    return [kind for kind, (_, names) in _KINDS.items() if name in names]


def _unknown(name: str, what: str) -> _UsageError:
    """Return the error for a name that is no ``what``, in three lines at most: the closest names.

    >>> print(_unknown("spars", "name"))
    unknown name 'spars'
    did you mean: sparse (a scenario)
    'tcdoc names' lists every operation and scenario
    >>> print(_unknown("t", "name").args[0].splitlines()[1])
    did you mean: T (an operation)
    """
    everything = list(dict.fromkeys(n for _, names in _KINDS.values() for n in names))
    lines = [f"unknown {what} {name!r}"]
    same_letters = [n for n in everything if n.lower() == name.lower()]
    by_lower = {n.lower(): n for n in everything}
    close = same_letters or [
        by_lower[n] for n in difflib.get_close_matches(name.lower(), list(by_lower), n=3)
    ]
    if close:
        labelled = (f"{n} ({', '.join(f'{_ARTICLES[k]} {k}' for k in _kinds_of(n))})" for n in close)
        lines.append(f"did you mean: {', '.join(labelled)}")
    lines.append("'tcdoc names' lists every operation and scenario")
    return _UsageError("\n".join(lines))


def _names(args: argparse.Namespace) -> int:
    """Print every name the command takes, by kind, wrapped to 100 columns."""
    for plural, names in _KINDS.values():
        print(textwrap.fill(f"{plural}: {', '.join(names)}", width=100, subsequent_indent="  "))
    return 0


def _check_names(names: Iterable[str] | None, kinds: Sequence[str]) -> None:
    """Refuse a name that is none of ``kinds``, saying where it belongs if it is a name at all."""
    for name in names or ():
        found = _kinds_of(name)
        if any(kind in kinds for kind in found):
            continue
        if found:
            where = {"scenario": "--scenario"}.get(found[0], "--op")
            raise _UsageError(
                f"{name!r} is {_ARTICLES[found[0]]} {found[0]}, not {_ARTICLES[kinds[0]]} {kinds[0]}: "
                f"name it with {where} {name}"
            )
        raise _unknown(name, kinds[0])


def _refuse_empty_pairs(ops: Sequence[str] | None, scenarios: Sequence[str] | None) -> None:
    """Refuse a tensor operation when ``--scenario`` names no tensor scenario: it would have no row.

    (A module-level operation named with ``--op`` has its row whatever ``--scenario`` says.)
    """
    if ops is None or scenarios is None or any(name != MODULE_SCENARIO for name in scenarios):
        return
    for name in ops:
        if name in OPERATION_NAMES:
            raise _UsageError(
                f"{name} is a tensor operation, and {MODULE_SCENARIO} holds module-level operations only: "
                "name a tensor scenario with --scenario"
            )


def _take_module_scenario(args: argparse.Namespace) -> None:
    """Turn ``--scenario`` into what :func:`tcdoc.matrix` takes: the module-level rows are its own.

    With no ``--op``, the module-level operations are shown unless ``--scenario`` names tensor
    scenarios only; :data:`MODULE_SCENARIO` among them asks for the module-level rows.
    """
    if args.scenario is None:
        return
    scenarios = [name for name in args.scenario if name != MODULE_SCENARIO]
    modules_too = len(scenarios) < len(args.scenario)
    if args.op is None and not modules_too:
        args.op = [op.name for op in tcdoc.operations()]  # every tensor operation, no module rows
    args.scenario = scenarios


def _matrix(args: argparse.Namespace) -> int:
    _check_names(args.op, ("operation", "module-level operation"))
    _check_names(args.scenario, ("scenario",))
    _refuse_empty_pairs(args.op, args.scenario)
    if args.op is not None:
        for name in args.op:
            if name in MODULE_OPERATION_NAMES:
                _refuse_grad_mode(args.grad_mode, name)
    elif args.grad_mode is not None and args.scenario is None:
        args.op = [op.name for op in tcdoc.operations()]  # a grad mode asks for the tensor rows
    _take_module_scenario(args)
    modes = None if args.grad_mode is None else list(dict.fromkeys(args.grad_mode))
    result = _guard(lambda: tcdoc.matrix(args.op, args.scenario, args.device, modes))
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
    header = ["operation", "scenario", "grad mode", *SHORT_LABELS.values()]
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
        table.append([row.operation, row.scenario, row.grad_mode, *cells])
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
    if not _kinds_of(args.name):
        raise _unknown(args.name, "name")
    if args.name in MODULE_OPERATION_NAMES or args.name == MODULE_SCENARIO:
        _refuse_grad_mode(args.grad_mode, args.name)
        return _explain_module(args) if args.name != MODULE_SCENARIO else _explain_modules(args)
    args.grad_mode = args.grad_mode or "enabled"
    if args.name in SCENARIO_NAMES and args.name not in OPERATION_NAMES:
        return _explain_scenario(args)
    op = _guard(lambda: tcdoc.get_operation(args.name))
    result = _guard(lambda: tcdoc.matrix([op.name], None, args.device, [args.grad_mode]))
    print(f"{op.code}: {op.summary}")
    print(f"({result.environment}{_under(args.grad_mode)})")
    for row in result.rows:
        scenario = tcdoc.get_scenario(row.scenario)
        print(f"\nOn {scenario.name}: {scenario.summary}")
        _print_answers(row)
        _print_inference(row, args.device)
    return 0


def _explain_scenario(args: argparse.Namespace) -> int:
    scenario = _guard(lambda: tcdoc.get_scenario(args.name))
    names = [op.name for op in tcdoc.operations(include_unavailable=True)]
    result = _guard(lambda: tcdoc.matrix(names, [scenario.name], args.device, [args.grad_mode]))
    print(f"{scenario.name}: {scenario.summary}")
    print(f"({result.environment}{_under(args.grad_mode)})")
    for row in result.rows:
        op = tcdoc.get_operation(row.operation)
        print(f"\ny = {op.code}: {op.summary}")
        _print_answers(row)
        _print_inference(row, args.device)
    return 0


def _refuse_grad_mode(grad_modes: str | Sequence[str] | None, name: str) -> None:
    """Refuse a grad mode for a module-level operation: tcdoc measures those with gradients enabled only."""
    modes = [grad_modes] if isinstance(grad_modes, str) else list(grad_modes or [])
    other = [mode for mode in modes if mode != "enabled"]
    if other:
        raise _UsageError(
            f"--grad-mode {other[0]} does not apply to {name}: module-level operations are measured "
            "with gradients enabled only"
        )


def _under(grad_mode: str) -> str:
    """Say which grad mode the operations ran under, where it is not the default."""
    return "" if grad_mode == "enabled" else f"; y made under torch.{grad_mode}()"


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


INFERENCE_LIMITS = "outside inference mode, autograd refuses to save an inference tensor for backward"
"""What an inference tensor cannot do; tests/test_cli.py checks the refusal on this torch."""


def _print_inference(row: tcdoc.ProbeResult, device: str) -> None:
    """Say where x or y is an inference tensor, and what that forbids: the answers above do not."""
    if row.not_run is not None:
        return
    from tcdoc._probe import inference_tensors  # here: --help and a typo must not import torch

    source, result = inference_tensors(row.operation, row.scenario, device, row.grad_mode)
    named = [name for name, found in (("x", source), ("y", result)) if found]
    if named:
        which = " and ".join(named)
        print(f"  {'Inference tensor?':<20} {which}: {INFERENCE_LIMITS}")


def _explain_module(args: argparse.Namespace) -> int:
    op = tcdoc.get_module_operation(args.name)
    result = _guard(lambda: tcdoc.matrix([op.name], [], args.device))
    (row,) = result.modules
    print(f"{op.code}: {op.summary}")
    print(f"({result.environment})")
    print(f"\nOn {row.scenario}: {MODULE_SCENARIO_SUMMARY}")
    _print_module_answers(row, op)
    return 0


def _explain_modules(args: argparse.Namespace) -> int:
    result = _guard(lambda: tcdoc.matrix(None, [], args.device))
    print(f"{MODULE_SCENARIO}: {MODULE_SCENARIO_SUMMARY}")
    print(f"({result.environment})")
    for row in result.modules:
        op = tcdoc.get_module_operation(row.operation)
        print(f"\ny = {op.code}: {op.summary}")
        _print_module_answers(row, op)
    return 0


def _print_module_answers(row: tcdoc.ModuleResult, op: tcdoc.ModuleOperation) -> None:
    print(f"x is the {op.source}.")
    if isinstance(row.outcome, tcdoc.ErrorInfo):
        print(f"  raises {row.outcome}")
    else:
        for key, words in tcdoc.module_answers(row.outcome, op.source).items():
            print(f"  {tcdoc.MODULE_QUESTIONS[key]:<20} {words}")
    for warning in row.warnings:
        print(f"  warns {warning}")


def _diff(args: argparse.Namespace) -> int:
    old, new = _load(args.old), _load(args.new)
    changes = tcdoc.diff(old, new)
    args.status.code = DIFFERENT if changes else 0  # what a closed pipe leaves the status at
    print(f"# old: torch {old.environment.torch} on {old.environment.device}")
    print(f"# new: torch {new.environment.torch} on {new.environment.device}")
    if not changes:
        print("no differences")
    for change in changes:
        print(f"{change.where}: {_shown(change.old, change.field)} -> {_shown(change.new, change.field)}")
    return DIFFERENT if changes else 0


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
    except UnicodeDecodeError as exc:
        raise _UsageError(f"{path} is not UTF-8 text: {exc.reason} at byte {exc.start}") from exc
    return _guard(lambda: tcdoc.Matrix.from_json(data), prefix=f"{path}: ")


def _one_line(text: str) -> str:
    return " ".join(text.split())


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
    """Write a value in a line of ``tcdoc diff`` as the tables do: yes, no, n/a, numbers and words.

    A list (of warnings) is its items joined by " | ", or "none"; a cell in one matrix only is
    "present" beside "absent".

    >>> _shown(True, "new_object"), _shown(None, "copies_grad"), _shown(24, "new_bytes")
    ('yes', 'n/a', '24')
    >>> _shown("raises RuntimeError: no", "outcome"), _shown([], "warnings"), _shown(None, "row")
    ('raises RuntimeError: no', 'none', 'absent')
    """
    if field == "row":
        return "present" if value else "absent"
    if isinstance(value, list | tuple):
        return " | ".join(_shown(item, field) for item in value) if value else "none"
    not_applicable = value is None and (field in NOT_APPLICABLE or field in MODULE_NOT_APPLICABLE)
    return cell(value, not_applicable)
