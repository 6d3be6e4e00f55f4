"""The ``tcdoc-changes`` directive: what changed between torch releases, from saved snapshots.

``tcdoc_snapshots`` in ``conf.py`` names a folder (relative to the source directory) of
snapshots, ``torch-X.Y.Z.json`` (:mod:`tcdoc._snapshots`, written by ``nox -s snapshot``). The
releases are those snapshots and this build's own matrix, measured on the CPU, which stands in
for the snapshot of its own release; each is compared with the one before it through
:func:`tcdoc._diff.history`, so a change is listed once, at the first release that shows it.

The directive writes a table of the releases (where and when each was measured, and how many
cells differ from the release before it), then one section per kind of change
(:data:`tcdoc._diff.CHANGE_GROUPS`): a table of the changes, or a sentence saying that nothing of
that kind changed. The matrix tables of the family pages mark each cell that differs between
releases, with a link to this directive's page (:func:`changed_cells`).

Every file read is a dependency of the pages that read it: a changed snapshot rebuilds them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

import tcdoc
from tcdoc._cells import cell
from tcdoc._names import LABELS, MODULE_LABELS, MODULE_SCENARIO
from tcdoc.sphinxext._grad_modes import field_label, mode_heading, value_cell
from tcdoc.sphinxext._i18n import generated
from tcdoc.sphinxext._i18n import translate as _
from tcdoc.sphinxext._links import code_link
from tcdoc.sphinxext._state import build_matrix, state
from tcdoc.sphinxext._table_nodes import make_cell, make_table, said

if TYPE_CHECKING:  # both import torch, which this module imports only when a build measures
    from tcdoc._diff import CellChange, Step
    from tcdoc._snapshots import Snapshot

__all__ = [
    "TARGET",
    "ChangesDirective",
    "History",
    "Release",
    "changed_cells",
    "changed_mark",
    "changed_note",
    "history",
]

TARGET = "tcdoc-changes"
"""The label of the ``tcdoc-changes`` directive's place, which the family pages' marks link to."""


@dataclasses.dataclass(frozen=True)
class Release:
    """One release of the history: its matrix, and the snapshot it came from (``None``: this build)."""

    version: str
    matrix: tcdoc.Matrix
    snapshot: Snapshot | None
    replaces: Snapshot | None = None  # the snapshot of this build's release, which its matrix replaced


@dataclasses.dataclass(frozen=True)
class History:
    """The releases in order, oldest first, and the changes from each to the next."""

    releases: tuple[Release, ...]
    steps: tuple[Step, ...]
    files: tuple[Path, ...]


def history(env: BuildEnvironment) -> History | None:
    """Return the build's history of releases, read once per build; ``None`` without ``tcdoc_snapshots``."""
    folder_setting = env.config.tcdoc_snapshots
    if folder_setting is None:
        return None
    found = state(env)
    if found.history is None:
        found.history = _read_history(env, Path(env.srcdir) / str(folder_setting))
    for path in found.history.files:
        env.note_dependency(str(path))
    return found.history


def _read_history(env: BuildEnvironment, folder: Path) -> History:
    from tcdoc._diff import history as steps_of
    from tcdoc._snapshots import read_snapshots, release

    files = tuple(sorted(folder.glob("torch-*.json")))
    snapshots = read_snapshots(files)
    live = build_matrix(env, "cpu")
    here = release(live.environment.torch)
    releases = [Release(snap.version, snap.matrix, snap) for snap in snapshots if snap.release != here]
    replaced = next((snap for snap in snapshots if snap.release == here), None)
    releases.append(Release(".".join(map(str, here)), live, None, replaced))
    releases.sort(key=lambda item: release(item.version))
    return History(tuple(releases), steps_of([item.matrix for item in releases]), files)


def changed_cells(env: BuildEnvironment) -> frozenset[tuple[str, str, str | None, str]] | None:
    """Return the (operation, scenario, grad mode, field) of each change between releases, or ``None``.

    ``None`` where ``tcdoc_snapshots`` is not set.

    A message that kept its words, and differs only in the place it names, is no change of answer.
    """
    found = history(env)
    if found is None:
        return None
    from tcdoc._diff import change_group

    return frozenset(
        (change.operation, change.scenario, change.grad_mode, change.field)
        for step in found.steps
        for change in step.changes
        if change_group(change) != "locations"  # the same words: not an answer that changed
    )


def changed_mark(env: BuildEnvironment) -> nodes.inline:
    """Make a small "changed" link to the page of what changed between releases, for a table cell."""
    words = _("changed")
    ref = pending_xref(
        "", refdomain="std", reftype="ref", reftarget=TARGET, refexplicit=True, refdoc=env.docname
    )
    ref += nodes.inline(words, words)
    mark = nodes.inline(classes=["tcdoc-changed"])
    mark += nodes.Text(" ")
    mark += ref
    return mark


def changed_note(env: BuildEnvironment) -> nodes.paragraph:
    """Say, under a table with marks, what "changed" means, with a link to the page of the changes."""
    before, _marker, after = _(
        "“changed”: this answer, or this x's error or warnings, differs between the torch releases "
        "compared on {page}."
    ).partition("{page}")
    ref = pending_xref(
        "", refdomain="std", reftype="ref", reftarget=TARGET, refexplicit=True, refdoc=env.docname
    )
    words = _("What changed between releases")
    ref += nodes.inline(words, words)
    note = nodes.paragraph(classes=["tcdoc-na-note", "tcdoc-changed-note"])
    note += [nodes.Text(before), ref, nodes.Text(after)]
    return note


def _release_link(env: BuildEnvironment, version: str, shown: str | None = None) -> nodes.Node:
    """Make the release ``version`` (``shown`` as, say, ``2.4.1+cu121``), linked to its notes."""
    text = version if shown is None else shown
    template = env.config.tcdoc_release_notes
    if template is None:
        return nodes.Text(text)
    return nodes.reference(text, text, refuri=str(template).format(version=version))


def _modes(modes: list[str | None]) -> str:
    if None in modes:  # a module-level row is run under no grad mode
        return cell(None, not_applicable=True, translate=_)
    if len(modes) == len(tcdoc.GRAD_MODES):
        return _("all three")
    return _(", ").join(mode_heading(str(mode)) for mode in modes)


def _label(field: str) -> str:
    if field in LABELS:
        return _(LABELS[field])
    if field in MODULE_LABELS:
        return _(MODULE_LABELS[field])
    return field_label(field)


def _cell(result: tcdoc.ProbeResult | tcdoc.ModuleResult, field: str) -> nodes.entry:
    """Make the cell of ``field`` in one release's cell, as the family tables write it."""
    if isinstance(result, tcdoc.ProbeResult):
        return value_cell(result, field)
    if field == "warnings" or isinstance(result.outcome, tcdoc.ErrorInfo):
        if field == "warnings" and not result.warnings:
            return make_cell(_("none"))
        if field == "warnings":
            entry = nodes.entry()
            for warning in result.warnings:
                entry += said(_("warns {warning}"), str(warning))
            return entry
        return make_cell(said(_("raises {error}"), str(result.outcome)))
    if field in MODULE_LABELS:
        return make_cell(result.outcome.as_dict()[field])
    return make_cell(_("measured"))


def _row(matrix: tcdoc.Matrix, change: CellChange) -> tcdoc.ProbeResult | tcdoc.ModuleResult:
    if change.grad_mode is None:
        return matrix.get_module(change.operation)
    return matrix.get(change.operation, change.scenario, change.grad_mode)


def _operation(env: BuildEnvironment, name: str) -> nodes.Node:
    try:
        return code_link(env, tcdoc.get_operation(name))
    except ValueError:
        return code_link(env, tcdoc.get_module_operation(name))


def _title(group: str) -> str:
    """Return the heading of a kind of change (one of :data:`tcdoc._diff.CHANGE_GROUPS`), translated."""
    if group == "warnings":
        return _("The advice in torch's warnings")
    if group == "load":
        return _("Loading with torch.load")
    if group == "errors":
        return _("What raises, and what the error says")
    if group == "copies":
        return _("What a copy shares or keeps")
    if group == "locations":
        return _("Messages whose words stayed the same")
    return _("Cells run in one release and not in another")


def _nothing(group: str) -> str:
    """Return the sentence that nothing of a kind changed (``{first}``, ``{last}``), translated."""
    if group == "warnings":
        return _("No warning changed between torch {first} and torch {last}.")
    if group == "load":
        return _("Nothing that torch.load did changed between torch {first} and torch {last}.")
    if group == "errors":
        return _(
            "No operation started or stopped raising, and no error message changed, "
            "between torch {first} and torch {last}."
        )
    if group == "copies":
        return _(
            "No answer about what a copy shares or keeps changed between torch {first} and torch {last}."
        )
    if group == "locations":
        return _("No message changed only in the place it names, from torch {first} to torch {last}.")
    return _("Every cell run in one release was run in every other, from torch {first} to torch {last}.")


class ChangesDirective(SphinxDirective):
    """What changed between the releases of ``tcdoc_snapshots`` and this build's torch."""

    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        try:
            found = history(self.env)
        except ValueError as exc:
            raise self.error(f"tcdoc-changes: {exc}") from exc
        if found is None:
            raise self.error("tcdoc-changes needs tcdoc_snapshots in conf.py: the folder of snapshot files")
        if len(found.releases) < 2:
            raise self.error(f"tcdoc-changes: no snapshot in {self.config.tcdoc_snapshots!r} to compare with")
        target = nodes.target("", "", ids=[TARGET])
        domain = self.env.domains.standard_domain
        domain.note_hyperlink_target(TARGET, self.env.docname, TARGET, _("What changed between releases"))
        output: list[nodes.Node] = [target, *self._releases(found)]
        from tcdoc._diff import CHANGE_GROUPS, change_group

        first, last = found.releases[0].version, found.releases[-1].version
        for group in CHANGE_GROUPS:
            steps = [
                (step, [change for change in step.changes if change_group(change) == group])
                for step in found.steps
            ]
            if group == "other" and not any(changes for _step, changes in steps):
                continue
            section = nodes.section(ids=[f"changes-{group}"])
            title = _title(group)
            section += nodes.title(title, title)
            if any(changes for _step, changes in steps):
                if group == "locations":
                    text = _(
                        "These cells' warnings or errors have the same words in both releases. They differ "
                        "only in the place in torch's source that they name, or in the list of backends of "
                        "the build that printed them. The place is a C++ file and line, or where torch is "
                        "installed; a build with CUDA lists more backends. They are not counted above."
                    )
                    section += nodes.paragraph(text, text)
                section += self._table(steps, compact=group == "locations")
            else:
                text = _nothing(group).format(first=first, last=last)
                section += nodes.paragraph(text, text, classes=["tcdoc-changes-none"])
            output.append(section)
        return generated(output)

    def _releases(self, found: History) -> list[nodes.Node]:
        """Make the table of releases: where and when each was measured, and how many cells changed."""
        live = next(item for item in found.releases if item.snapshot is None)
        header = [
            "torch",
            "Python",
            _("platform"),
            _("measured on"),
            _("cells that differ from the release before"),
            _("cells that differ from torch {version}").format(version=live.version),
        ]
        from tcdoc._diff import change_group
        from tcdoc._diff import history as steps_of

        def counted(step: Step) -> int:
            return sum(change_group(change) != "locations" for change in step.changes)

        rows: list[list[object]] = []
        counts = [None, *(counted(step) for step in found.steps)]
        for item, count in zip(found.releases, counts, strict=True):
            env = item.matrix.environment
            if item.snapshot is None:
                when, where = _("in this build"), cell(None)
            else:
                when, where = item.snapshot.date, item.snapshot.platform
            (to_live,) = steps_of([item.matrix, live.matrix])
            rows.append(
                [
                    _release_link(self.env, item.version, env.torch),
                    env.python,
                    where,
                    when,
                    cell(count),
                    str(counted(to_live)),
                ]
            )
        table = make_table(header, rows, ["tcdoc-releases"])
        output: list[nodes.Node] = [table]
        if live.replaces is not None:
            (same,) = steps_of([live.replaces.matrix, live.matrix])
            text = _(
                "This build measured torch {version} itself, in place of its snapshot (measured on {date}). "
                "{count} cells differ between the two, not counting messages that differ only in the place "
                "they name."
            ).format(version=live.version, date=live.replaces.date, count=counted(same))
            output.append(nodes.paragraph(text, text, classes=["tcdoc-changes-live"]))
        quiet = [step for step in found.steps if not counted(step)]
        if quiet:
            pairs = _(", ").join(
                _("from {old} to {new}").format(old=_version(step.old), new=_version(step.new))
                for step in quiet
            )
            text = _("Nothing changed {pairs}.").format(pairs=pairs)
            output.append(nodes.paragraph(text, text, classes=["tcdoc-changes-none"]))
        return output

    def _table(self, steps: list[tuple[Step, list[CellChange]]], compact: bool = False) -> nodes.table:
        """One row per change and the kinds of x and grad modes it showed on; ``compact``: no values."""
        header = [_("first shown in"), _("y ="), "x", _("grad modes"), _("property")]
        if not compact:
            header += [_("before"), _("after")]
        table = make_table(header, [], ["tcdoc-changes"])
        body = table.next_node(nodes.tbody)
        assert isinstance(body, nodes.tbody)
        # First the grad modes of each kind of x, then the kinds of x that changed in the same modes:
        # a row's kinds of x times its grad modes are exactly the cells it stands for, as counted above.
        by_scenario: dict[
            tuple[int, str, str, str, str, str], tuple[list[str | None], list[nodes.entry]]
        ] = {}
        for index, (step, changes) in enumerate(steps):
            for change in changes:
                cells = [
                    _cell(_row(step.old, change), change.field),
                    _cell(_row(step.new, change), change.field),
                ]
                texts = ("", "") if compact else (cells[0].astext(), cells[1].astext())
                key = (index, change.operation, change.field, *texts, change.scenario)
                modes, _cells = by_scenario.setdefault(key, ([], cells))
                if change.grad_mode not in modes:
                    modes.append(change.grad_mode)
        rows: dict[
            tuple[int, str, str, str, str, tuple[str | None, ...]],
            tuple[list[str], list[str | None], list[nodes.entry]],
        ] = {}
        for (index, operation, field, before, after, scenario), (modes, cells) in by_scenario.items():
            row_key = (index, operation, field, before, after, tuple(modes))
            scenarios, _same_modes, _cells = rows.setdefault(row_key, ([], modes, cells))
            scenarios.append(scenario)
        for (index, operation, field, _before, _after, _key), (scenarios, modes, cells) in rows.items():
            step = steps[index][0]
            row = nodes.row()
            shown = nodes.paragraph()
            shown += _release_link(self.env, _version(step.new))
            shown += nodes.Text(" " + _("(after {old})").format(old=_version(step.old)))
            row += make_cell(shown)
            row += make_cell(_operation(self.env, operation))
            row += make_cell(_("the model") if scenarios == [MODULE_SCENARIO] else ", ".join(scenarios))
            row += make_cell(_modes(modes))
            row += make_cell(_label(field))
            if not compact:
                row.extend(cells)
            body += row
        return table


def _version(matrix: tcdoc.Matrix) -> str:
    from tcdoc._snapshots import release

    return ".".join(map(str, release(matrix.environment.torch)))
