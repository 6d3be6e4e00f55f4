"""tcdoc.sphinxext renders what tcdoc measures: checked on the small projects in tests/roots."""

from __future__ import annotations

import ast
import html as html_module
import inspect
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest
import torch
from docutils import nodes
from sphinx.errors import ConfigError
from sphinx.testing.util import SphinxTestApp

import tcdoc
import tcdoc.sphinxext
from tcdoc.sphinxext import run_command

if TYPE_CHECKING:
    from sphinx.testing.fixtures import _app_params

# -- Helpers -------------------------------------------------------------------------------------


N = TypeVar("N", bound=nodes.Node)


def first(node: nodes.Node, cls: type[N]) -> N:
    """The first ``cls`` below ``node``, as ``node.next_node(cls)`` finds it; the test needs one there."""
    found = node.next_node(cls)
    assert found is not None, f"no {cls.__name__} in {node.astext()[:60]!r}"
    return found


def tables(doctree: nodes.Node, kind: str) -> list[nodes.table]:
    """The tables of one directive (``tcdoc-summary`` and so on), in page order."""
    return [table for table in doctree.findall(nodes.table) if kind in table["classes"]]


def rows(table: nodes.table) -> list[list[str]]:
    """The text of each body row's cells."""
    body = first(table, nodes.tbody)
    return [[entry.astext() for entry in row.findall(nodes.entry)] for row in body.findall(nodes.row)]


def header(table: nodes.table) -> list[str]:
    return [entry.astext() for entry in first(table, nodes.thead).findall(nodes.entry)]


def with_class(doctree: nodes.Node, cls: type[nodes.Element], name: str) -> list[nodes.Element]:
    return [node for node in doctree.findall(cls) if name in node["classes"]]


def resolved(app: SphinxTestApp, docname: str = "index") -> nodes.document:
    """The doctree of ``docname`` with its references resolved, as the builder writes it."""
    # Sphinx 9 wants the build's tags here; Sphinx 8.1 does not know the argument.
    if "tags" in inspect.signature(app.env.get_and_resolve_doctree).parameters:
        return app.env.get_and_resolve_doctree(docname, app.builder, tags=app.tags)
    return app.env.get_and_resolve_doctree(docname, app.builder)


def external_links(doctree: nodes.Node) -> dict[str, str]:
    """Each external reference's text and address."""
    return {
        ref.astext(): ref["refuri"] for ref in doctree.findall(nodes.reference) if not ref.get("internal")
    }


def _measured(operation: str, scenario: str, grad_mode: str = "enabled") -> tcdoc.Comparison:
    """What ``operation`` measured on ``scenario``, which must neither raise nor be left out."""
    report = tcdoc.probe(operation, scenario, grad_mode=grad_mode).properties
    assert report is not None
    return report


# -- The fact directives and roles ---------------------------------------------------------------


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_builds_without_warnings(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    assert (app.outdir / "index.html").is_file()


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_summary_shows_the_measured_answers(app: SphinxTestApp) -> None:
    app.build()
    (table,) = tables(app.env.get_doctree("index"), "tcdoc-summary")
    assert header(table) == ["y =", *tcdoc.QUESTIONS.values()]
    expected = []
    for name in ("clone", "detach"):
        report = tcdoc.probe(name, "non_leaf").properties
        assert report is not None
        expected.append([tcdoc.get_operation(name).code, *tcdoc.answers(report).values()])
    error = tcdoc.probe("deepcopy", "non_leaf").error
    assert rows(table) == [*expected, ["copy.deepcopy(x)", f"raises {error}"]]
    # The error's one cell spans the three answers it replaces.
    last_row = list(first(table, nodes.tbody).findall(nodes.row))[-1]
    last_cell = last_row.children[-1]
    assert isinstance(last_cell, nodes.entry)
    assert last_cell["morecols"] == len(tcdoc.QUESTIONS) - 1


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_summary_names_its_source_and_the_build(app: SphinxTestApp) -> None:
    app.build()
    doctree = app.env.get_doctree("index")
    captions = [p.astext() for p in doctree.findall(nodes.paragraph)]
    assert f"Source x: {tcdoc.get_scenario('non_leaf').summary}" in captions
    stamps = with_class(doctree, nodes.paragraph, "tcdoc-stamp")
    assert stamps
    assert {stamp.astext() for stamp in stamps} == {f"Measured at build time with {tcdoc.environment()}."}


def messages(section: nodes.Element) -> list[str]:
    """The items of the list of what torch printed, which comes last under a table, after the notes' lists."""
    lists = list(section.findall(nodes.bullet_list))
    assert lists, section.astext()[:200]
    return [item.astext() for item in lists[-1].children]


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_matrix_lists_errors_and_warnings_verbatim(app: SphinxTestApp) -> None:
    app.build()
    doctree = app.env.get_doctree("index")
    sections = {section["ids"][0]: section for section in doctree.findall(nodes.section)}
    assert {"matrix-deepcopy", "matrix-torch_tensor"} <= set(sections)
    deepcopy = sections["matrix-deepcopy"]
    assert first(deepcopy, nodes.title).astext() == "copy.deepcopy(x)"
    error = tcdoc.probe("deepcopy", "non_leaf").error
    assert messages(deepcopy) == [f"non_leaf raises {error}"]
    # A warning that several scenarios give is listed once, with all of them.
    (warning,) = tcdoc.probe("torch_tensor", "leaf_requires_grad").warnings
    warned = [
        s for s in ("leaf_requires_grad", "non_leaf") if warning in tcdoc.probe("torch_tensor", s).warnings
    ]
    assert f"{', '.join(warned)} warns {warning}" in messages(sections["matrix-torch_tensor"])
    # Each operation's table is a link target: {ref}`matrix-deepcopy` and the like.
    assert app.env.domains.standard_domain.anonlabels["matrix-deepcopy"] == ("index", "matrix-deepcopy")


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_matrix_spans_a_raising_scenario_over_its_column(app: SphinxTestApp) -> None:
    app.build()
    deepcopy = next(
        s for s in app.env.get_doctree("index").findall(nodes.section) if "matrix-deepcopy" in s["ids"]
    )
    (table,) = tables(deepcopy, "tcdoc-matrix")
    assert header(table) == ["property", "leaf_requires_grad", "non_leaf"]
    (spanning,) = with_class(table, nodes.entry, "tcdoc-raises")
    error = tcdoc.probe("deepcopy", "non_leaf").error
    assert error is not None
    assert spanning.astext() == f"raises {error.type} (below)"
    assert spanning["morerows"] == len(rows(table)) - 1


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_roles_show_single_facts(app: SphinxTestApp) -> None:
    app.build()
    doctree = app.env.get_doctree("index")
    facts = [node.astext() for node in with_class(doctree, nodes.literal, "tcdoc-fact")]
    error = tcdoc.probe("deepcopy", "non_leaf").error
    assert error is not None
    warnings = tcdoc.probe("torch_tensor", "leaf_requires_grad").warnings
    detach = tcdoc.probe("detach", "no_grad").properties
    assert detach is not None
    assert facts == [
        str(detach.shares_storage),
        error.type,
        str(error),
        "; ".join(map(str, warnings)),
        str(_measured("clone", "leaf_requires_grad").is_leaf),
        str(_measured("clone", "leaf_requires_grad", "no_grad").is_leaf),
    ]
    assert facts[-2:] == ["False", "True"]  # the default mode's value, then no_grad's
    (torch_version,) = with_class(doctree, nodes.literal, "tcdoc-env")
    assert torch_version.astext() == tcdoc.environment().torch == torch.__version__


@pytest.mark.sphinx("html", testroot="facts", freshenv=True)
def test_scenarios_directive_lists_every_scenario(app: SphinxTestApp) -> None:
    app.build()
    lists = app.env.get_doctree("index").findall(nodes.bullet_list)
    # The matrix lists its errors and warnings in bullet lists of its own sections.
    (items,) = [b for b in lists if not any(i.startswith("matrix-") for i in b.parent["ids"])]
    # docutils curls the apostrophes of the summaries (smart quotes).
    expected = [f"{s.name}: {s.summary}".replace("'", "\u2019") for s in tcdoc.scenarios()]
    assert [item.astext() for item in items.children] == expected
    names = [first(item, nodes.literal).astext() for item in items.children]
    assert names == [scenario.name for scenario in tcdoc.scenarios()]


@pytest.mark.sphinx("html", testroot="fact-errors", freshenv=True)
def test_unknown_facts_are_build_errors(app: SphinxTestApp) -> None:
    app.build()
    warnings = app.warning.getvalue()
    assert "tcdoc-fact 'clone/no_grad/colour': no field 'colour'" in warnings
    assert "tcdoc-fact wants op/scenario/field, got 'clone/no_grad'" in warnings
    assert "tcdoc-fact 'clone_deep/no_grad/shares_storage': unknown operation 'clone_deep'" in warnings
    assert "tcdoc-fact 'clone/nowhere/shares_storage'" in warnings
    assert "tcdoc-env: unknown field 'colour'" in warnings
    assert "tcdoc-fact 'clone/no_grad/is_leaf/off': unknown grad mode 'off'" in warnings
    assert warnings.count("ERROR") == 6
    doctree = app.env.get_doctree("index")
    assert not with_class(doctree, nodes.literal, "tcdoc-fact")
    assert not with_class(doctree, nodes.literal, "tcdoc-env")


# -- tcdoc-command -------------------------------------------------------------------------------


def test_run_command_runs_the_cli() -> None:
    status, output = run_command(["explain", "nope"])
    assert status == 2
    assert "unknown name 'nope'" in output
    status, output = run_command(["--help"])
    assert status == 0
    assert "usage: tcdoc" in output


@pytest.mark.parametrize("columns", [None, "42"])
def test_run_command_wraps_help_at_100_columns_and_restores_columns(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    _, output = run_command(["--help"])
    assert max(map(len, output.splitlines())) <= 100
    assert os.environ.get("COLUMNS") == columns


@pytest.mark.sphinx("html", testroot="command", freshenv=True)
def test_command_directive_shows_the_command_and_what_it_printed(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    blocks = list(app.env.get_doctree("index").findall(nodes.literal_block))
    assert [block["language"] for block in blocks] == ["console", "console"]
    status, output = run_command(["explain", "detach"])
    assert status == 0
    assert blocks[0].astext() == f"$ tcdoc explain detach\n{output.rstrip()}"
    assert "[exit status" not in blocks[0].astext()
    status, output = run_command(["explain", "nope"])
    assert blocks[1].astext() == f"$ tcdoc explain nope\n{output.rstrip()}\n[exit status {status}]"
    assert blocks[1].astext().endswith("[exit status 2]")


# -- tcdoc_operation_docs ------------------------------------------------------------------------


def operation_cells(table: nodes.table) -> dict[str, nodes.entry]:
    """The first cell of each body row, by the operation code it shows."""
    cells = {}
    for row in first(table, nodes.tbody).findall(nodes.row):
        cell = row[0]
        assert isinstance(cell, nodes.entry)
        cells[cell.astext()] = cell
    return cells


@pytest.mark.sphinx("html", testroot="operation-docs", freshenv=True)
def test_an_operation_with_a_page_links_its_code_there(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    doctree = resolved(app)
    for kind in ("tcdoc-summary", "tcdoc-properties"):
        (table,) = tables(doctree, kind)
        cells = operation_cells(table)
        assert set(cells) == {"x.clone()", "x.detach()"}
        link = cells["x.clone()"].next_node(nodes.reference)
        assert link is not None, kind
        assert link["refuri"] == "operations/clone.html"
        assert link.get("internal")
        assert link.astext() == "x.clone()"
        assert first(link, nodes.literal).astext() == "x.clone()", "the code keeps its formatting"
        # An operation without a page keeps its code, unlinked.
        assert cells["x.detach()"].next_node(nodes.reference) is None
        assert first(cells["x.detach()"], nodes.literal).astext() == "x.detach()"


@pytest.mark.sphinx("html", testroot="operation-docs", freshenv=True)
def test_the_matrix_points_to_the_operations_page(app: SphinxTestApp) -> None:
    app.build()
    doctree = resolved(app)
    sections = {section["ids"][0]: section for section in doctree.findall(nodes.section)}
    see = [p for p in sections["matrix-clone"].findall(nodes.paragraph) if p.astext().startswith("See ")]
    assert [p.astext() for p in see] == ["See x.clone() for the page that shows it at work."]
    assert first(see[0], nodes.reference)["refuri"] == "operations/clone.html"
    assert first(first(see[0], nodes.reference), nodes.literal).astext() == "x.clone()"
    detach = [p for p in sections["matrix-detach"].findall(nodes.paragraph) if p.astext().startswith("See ")]
    assert detach == []


@pytest.mark.sphinx(
    "html",
    testroot="operation-docs",
    freshenv=True,
    confoverrides={"tcdoc_operation_docs": {"clone": "operations/nowhere"}},
)
def test_a_link_to_a_missing_page_is_a_tcdoc_warning_and_keeps_the_code(app: SphinxTestApp) -> None:
    app.build()
    assert "links x.clone() to 'operations/nowhere', which is not a page" in app.warning.getvalue()
    assert "[tcdoc.link]" in app.warning.getvalue()
    (table,) = tables(resolved(app), "tcdoc-summary")
    cell = operation_cells(table)["x.clone()"]
    assert cell.next_node(nodes.reference) is None
    assert first(cell, nodes.literal).astext() == "x.clone()"


# -- Links to official documentation (the site's offline inventories) ---------------------------

INVENTORIES = Path(__file__).resolve().parents[1] / "docs" / "_inventories"


def offline() -> dict[str, tuple[str, str]]:
    """The site's intersphinx_mapping, with the inventory files named by absolute path.

    A new dict for each app: intersphinx rewrites the mapping it is given.
    """
    return {
        "torch": ("https://docs.pytorch.org/docs/stable/", str(INVENTORIES / "torch.inv")),
        "python": ("https://docs.python.org/3/", str(INVENTORIES / "python.inv")),
        "matplotlib": ("https://matplotlib.org/stable/", str(INVENTORIES / "matplotlib.inv")),
    }


@pytest.mark.sphinx("html", testroot="links", freshenv=True, confoverrides={"intersphinx_mapping": offline()})
def test_torch_python_and_matplotlib_names_link_to_their_official_pages(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""  # under nitpicky: every reference resolved, with no network
    links = external_links(resolved(app))
    assert links["torch.Tensor.clone()"].startswith("https://docs.pytorch.org/docs/stable/")
    assert links["torch.Tensor.clone()"].endswith("#torch.Tensor.clone")
    assert links["copy.deepcopy()"] == "https://docs.python.org/3/library/copy.html#copy.deepcopy"
    assert links["matplotlib.figure.Figure"].startswith("https://matplotlib.org/stable/")
    assert links["Axes"].endswith("#matplotlib.axes.Axes")


@pytest.mark.sphinx(
    "html", testroot="links-unresolved", freshenv=True, confoverrides={"intersphinx_mapping": offline()}
)
def test_names_that_have_no_official_page_stay_unresolved(app: SphinxTestApp) -> None:
    app.build()
    warnings = app.warning.getvalue()
    for target in (
        "py:meth reference target not found: torch.Tensor.no_such_method",
        "py:func reference target not found: numpy.no_such_function",
        "py:class reference target not found: matplotlib.figure.NoSuchClass",
        "js:func reference target not found: torch.Tensor.clone",
    ):
        assert target in warnings
    assert external_links(resolved(app)) == {}


# -- Settings, checked when the configuration is read --------------------------------------------


@pytest.fixture
def no_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    """No CUDA device, whatever the machine."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


def configured(
    make_app: Callable[..., SphinxTestApp], app_params: _app_params, **settings: object
) -> SphinxTestApp:
    """Make the app of tests/roots/test-config with ``settings`` set, as conf.py would set them."""
    return make_app(*app_params.args, **{**app_params.kwargs, "confoverrides": settings})


BAD_SETTINGS = [
    ({"tcdoc_device": "gpu"}, "tcdoc_device must be one of 'cpu', 'cuda'; got 'gpu'"),
    ({"tcdoc_device": "cuda"}, "tcdoc_device is 'cuda', but this torch has no CUDA device"),
    ({"tcdoc_operation_docs": ["clone"]}, "tcdoc_operation_docs must be a dict .*; got list"),
    (
        {"tcdoc_operation_docs": {"clone": "a", "clonee": "b", "Detach": "c"}},
        "tcdoc_operation_docs names unknown operations: 'Detach', 'clonee'. Known operations: clone, detach,",
    ),
    (
        {"tcdoc_operation_docs": {"clone": "operations/clone.rst"}},
        r"tcdoc_operation_docs\['clone'\] must be a docname .*\(no suffix\); got 'operations/clone.rst'",
    ),
    ({"tcdoc_operation_docs": {"copy": "look-alikes.html"}}, r"\['copy'\] .*; got 'look-alikes.html'"),
    ({"tcdoc_operation_docs": {"copy": ""}}, r"\['copy'\] must be a docname .*; got ''"),
    ({"tcdoc_operation_docs": {"copy": 3}}, r"\['copy'\] must be a docname .*; got 3"),
    (
        {"tcdoc_operation_default_doc": "index.md"},
        "tcdoc_operation_default_doc must be a docname .*'index.md'",
    ),
    ({"tcdoc_snapshots": ""}, "tcdoc_snapshots must be a folder such as '_snapshots', or None; got ''"),
    ({"tcdoc_release_notes": "https://example.org/"}, "tcdoc_release_notes must hold {version}"),
    ({"tcdoc_checks": "docs/_checks"}, "tcdoc_checks must be a package's name .*; got 'docs/_checks'"),
    ({"tcdoc_checks": None}, "tcdoc_checks must be a package's name .*; got None"),
]


@pytest.mark.sphinx("html", testroot="config")
@pytest.mark.parametrize(("settings", "message"), BAD_SETTINGS)
def test_a_bad_setting_is_a_configuration_error(
    no_cuda: None,
    make_app: Callable[..., SphinxTestApp],
    app_params: _app_params,
    settings: dict[str, Any],
    message: str,
) -> None:
    with pytest.raises(ConfigError, match=message):
        configured(make_app, app_params, **settings)


@pytest.mark.sphinx("html", testroot="config")
def test_every_bad_setting_is_named_in_one_error(
    no_cuda: None, make_app: Callable[..., SphinxTestApp], app_params: _app_params
) -> None:
    settings = {"tcdoc_device": "gpu", "tcdoc_operation_docs": {"clonee": "a"}, "tcdoc_checks": "a b"}
    with pytest.raises(ConfigError) as raised:
        configured(make_app, app_params, **settings)
    named = [setting for setting in settings if setting in str(raised.value)]
    assert named == list(settings), str(raised.value)


@pytest.mark.sphinx("html", testroot="config")
def test_good_settings_are_kept(
    no_cuda: None, make_app: Callable[..., SphinxTestApp], app_params: _app_params
) -> None:
    app = configured(make_app, app_params, tcdoc_operation_docs={"clone": "operations/clone"})
    assert app.config.tcdoc_device == "cpu"
    assert app.config.tcdoc_operation_docs == {"clone": "operations/clone"}


@pytest.mark.sphinx("html", testroot="config")
def test_cuda_is_accepted_where_torch_has_it(
    monkeypatch: pytest.MonkeyPatch, make_app: Callable[..., SphinxTestApp], app_params: _app_params
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert configured(make_app, app_params, tcdoc_device="cuda").config.tcdoc_device == "cuda"


def test_sphinx_build_reports_a_bad_setting_without_a_traceback(rootdir: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(rootdir / "test-config-bad-device", source)
    environ = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    built = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
        timeout=300,
    )
    assert built.returncode != 0
    assert "Configuration error" in built.stderr
    assert "tcdoc_device must be one of 'cpu', 'cuda'; got 'gpu'" in built.stderr
    # No traceback from deep inside a directive: the one frame Sphinx may show (Sphinx 9 shows the
    # last frame of any error it reports) is the check that raised.
    assert "Traceback (most recent call last)" not in built.stderr + built.stdout
    frames = re.findall(r'File "([^"]+)", line', built.stderr)
    assert all(Path(frame).name == "_config.py" for frame in frames), frames
    assert not (tmp_path / "out" / "index.html").exists()


# -- Warnings: each has a type and subtype, so a project can suppress it -------------------------


def logged_warnings(path: Path) -> list[ast.Call]:
    """The ``logger.warning(...)`` calls of one module."""
    return [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("warning", "error", "critical")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "logger"
    ]


def test_every_warning_the_extension_logs_has_a_type_and_subtype() -> None:
    package = Path(tcdoc.sphinxext.__file__).parent
    found = 0
    for path in sorted(package.glob("*.py")):
        for call in logged_warnings(path):
            keywords = {k.arg: k.value for k in call.keywords}
            where = f"{path.name}:{call.lineno}"
            kind, subtype = keywords.get("type"), keywords.get("subtype")
            assert isinstance(kind, ast.Constant), where
            assert kind.value == "tcdoc", where
            assert isinstance(subtype, ast.Constant), where
            assert isinstance(subtype.value, str), where
            assert subtype.value, where
            found += 1
    assert found >= 2  # the claims' errors and the operation link's warning, at least


# -- n/a, not run, and claims (one-page projects) -------------------------------------------------


def build(make_app: Callable[..., SphinxTestApp], root: Path, page: str) -> str:
    """Build a one-page project with tcdoc.sphinxext; return the warnings it printed."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (root / "index.rst").write_text(page)
    app = make_app("html", srcdir=root)
    app.build()
    return app.warning.getvalue()


def built_html(root: Path) -> str:
    return (root / "_build" / "html" / "index.html").read_text(encoding="utf-8")


NOT_APPLICABLE_PAGE = """\
Facts
=====

.. tcdoc-properties::
   :operations: deepcopy
   :scenarios: no_grad parameter
   :fields: copies_grad copies_attributes

Deepcopy copies .grad: :tcdoc-fact:`deepcopy/no_grad/copies_grad`.
"""


def test_nothing_to_copy_shows_n_a_with_its_reason_never_no(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    assert build(make_app, tmp_path / "site", NOT_APPLICABLE_PAGE) == ""
    html = built_html(tmp_path / "site")
    assert '<abbr title="n/a: x has no .grad">n/a</abbr>' in html
    assert '<abbr title="n/a: x has no Python attributes">n/a</abbr>' in html
    assert "“n/a” means the question does not apply:</p>" in html  # a lead, then one reason an item:
    assert "<li>Under “copies .grad”, x has no .grad.</li>" in html
    assert "<li>Under “copies attributes”, x has no Python attributes.</li>" in html
    assert '<span class="pre">n/a:</span> <span class="pre">x</span>' in html  # the fact role, in words
    deepcopy = tcdoc.probe("deepcopy", "parameter").properties
    assert deepcopy is not None
    assert deepcopy.copies_grad is False  # a real "no" stays "no"


LEGEND_PAGE = """\
Facts
=====

.. tcdoc-properties::
   :operations: deepcopy requires_grad_ view expand
   :scenarios: leaf_requires_grad no_grad expanded
   :fields: copies_grad copies_attributes is_view gradient_flows_to_source same_strides writes_fill

.. tcdoc-matrix::
   :operations: requires_grad_
   :scenarios: leaf_requires_grad no_grad
"""


def test_the_legend_gives_every_reason_that_occurs_in_its_table(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    from tcdoc._names import LABELS, reason
    from tcdoc._writes import Y_AND_X

    assert build(make_app, tmp_path / "site", LEGEND_PAGE) == ""
    html = built_html(tmp_path / "site")
    # The first table's legend: one field may be n/a for two reasons in it ("copies .grad": y is
    # x, and x has no .grad); each reason of each n/a cell is given, under the field's heading.
    legend = html.split('<table class="tcdoc-table')[1].split("</table>")[1].split("<table")[0]
    for op in ("deepcopy", "requires_grad_", "view", "expand"):
        for scenario in ("leaf_requires_grad", "no_grad", "expanded"):
            report = tcdoc.probe(op, scenario).properties
            if report is None:
                continue
            values = report.as_dict()
            for field in ("copies_grad", "copies_attributes", "is_view", "gradient_flows_to_source"):
                why = reason(field, values) if values[field] is None else None
                if why is not None:
                    assert f"“{LABELS[field]}”" in legend, field
                    assert why in legend, why
    assert "Under “is a view of x”, “copies .grad”, “copies attributes”, y is x." in html
    assert "Under “copies .grad”, x has no .grad." in html
    assert "x and y differ in shape, so their strides cannot be compared" in html
    assert "x does not require grad, so no gradient can reach it" in html
    # An in-place write's outcome is words in the cell, and what they mean is said once under the table.
    assert f'<td class="tcdoc-write">{Y_AND_X}</td>' in html
    assert f"“{Y_AND_X}”: the write succeeded and also changed x" in html
    assert '<abbr title="the write succeeded' not in html


def test_an_error_fact_of_an_operation_that_did_not_raise_is_a_build_error(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    warnings = build(
        make_app, tmp_path / "site", "X\n=\n\nIt raises :tcdoc-fact:`clone/no_grad/error.type`.\n"
    )
    assert "clone did not raise on no_grad" in warnings


def test_a_cell_not_run_shows_why_on_the_page(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    # The matrix is the build's (on env), so this build measures it afresh, without numpy.
    page = "X\n=\n\n.. tcdoc-matrix::\n   :operations: numpy_roundtrip\n   :scenarios: no_grad\n"
    assert build(make_app, tmp_path / "site", page) == ""
    html = built_html(tmp_path / "site")
    assert "not run: needs numpy" in html
    assert "raises" not in html.split('id="matrix-numpy_roundtrip"')[1]


# -- The complete reference: non-tensor results, modules, families, long messages -------------------

REFERENCE_PAGE = """\
Facts
=====

.. tcdoc-summary::
   :operations: clone detach deepcopy
   :scenario: non_leaf

.. tcdoc-matrix::
   :operations: deepcopy torch_tensor
   :scenarios: leaf_requires_grad non_leaf

.. tcdoc-properties::
   :operations: deepcopy
   :scenarios: no_grad parameter
   :fields: copies_grad copies_attributes

Detach shares storage: :tcdoc-fact:`detach/no_grad/shares_storage`.
Built with torch :tcdoc-env:`torch`.
Deepcopy copies .grad: :tcdoc-fact:`deepcopy/no_grad/copies_grad`.

.. tcdoc-properties::
   :operations: tolist
   :scenarios: no_grad
   :fields: new_object requires_grad same_dtype

.. tcdoc-modules::

.. tcdoc-modules::
   :operations: state_dict module_to_float64
   :answers:

The model converted in place: :tcdoc-fact:`module_to_float64/trained_model/changes_source`.
A list has no dtype: :tcdoc-fact:`tolist/no_grad/same_dtype`.
"""


@pytest.fixture
def reference_html(make_app: Callable[..., SphinxTestApp], tmp_path: Path) -> str:
    assert build(make_app, tmp_path / "reference", REFERENCE_PAGE) == ""
    return built_html(tmp_path / "reference")


def test_a_result_that_is_not_a_tensor_shows_n_a_and_why(reference_html: str) -> None:
    html = reference_html
    assert '<abbr title="n/a: y is not a tensor">n/a</abbr>' in html
    assert "Under “requires_grad”, “same dtype”, y is not a tensor." in html
    assert '<span class="pre">n/a:</span> <span class="pre">y</span>' in html


def test_modules_table_and_answers_are_measured(reference_html: str) -> None:
    html = reference_html
    for op in tcdoc.module_operations():
        assert op.code.replace('"', "&quot;") in html
    report = tcdoc.probe_module("module_to_float64").properties
    assert report is not None
    for words in tcdoc.module_answers(report).values():
        assert words.replace("'", "\u2019") in html  # docutils' smart quotes
    assert f'<span class="pre">{report.changes_source}</span>' in html
    assert "x\u2019s tensors have no .grad" in html  # the optimizer rows, in the note


def test_matrix_family_and_groups(make_app: Callable[..., SphinxTestApp], tmp_path: Path) -> None:
    page = "X\n=\n\n.. tcdoc-matrix::\n   :family: in_place\n"
    assert build(make_app, tmp_path / "family", page) == ""
    html = built_html(tmp_path / "family")
    in_place = [op.name for op in tcdoc.operations() if op.family == "in_place"]
    assert [f'id="matrix-{name}"' in html for name in in_place] == [True] * len(in_place)
    assert 'id="matrix-clone"' not in html
    # Each operation has a table per group: the special tensors' properties are left out of the first.
    assert html.count("Not shown, since they do not apply to any x of this table") >= len(in_place)
    bad = "X\n=\n\n.. tcdoc-matrix::\n   :family: nope\n"
    assert "unknown family" in build(make_app, tmp_path / "bad-family", bad)


def test_scenarios_by_group_and_bad_names_in_module_tables(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    page = "X\n=\n\n.. tcdoc-scenarios::\n   :group: special\n"
    assert build(make_app, tmp_path / "special", page) == ""
    html = built_html(tmp_path / "special")
    assert '<span class="pre">inference</span>' in html
    assert '<span class="pre">no_grad</span>' not in html
    odd = "X\n=\n\n.. tcdoc-scenarios::\n   :group: odd\n"
    assert "unknown group 'odd'" in build(make_app, tmp_path / "odd", odd)
    bad = "X\n=\n\n.. tcdoc-modules::\n   :operations: state\n"
    assert "tcdoc-modules: unknown module operation 'state'" in build(make_app, tmp_path / "state", bad)
    fact = "X\n=\n\n:tcdoc-fact:`state_dict/no_grad/new_object`\n"
    assert "a module-level operation's scenario is 'trained_model'" in build(
        make_app, tmp_path / "fact", fact
    )


def test_a_very_long_message_is_cut_at_a_sentence_and_says_so(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    error = tcdoc.probe("view", "sparse").error
    assert len(str(error)) > 400  # torch lists every dispatch key
    page = "X\n=\n\n.. tcdoc-matrix::\n   :operations: view\n   :scenarios: sparse\n"
    assert build(make_app, tmp_path / "long", page) == ""
    html = built_html(tmp_path / "long")
    # No count of the characters left out: it would depend on where torch is installed.
    assert "[…] (cut here; the JSON of tcdoc matrix has the whole message)" in html
    (shown,) = re.findall(r'raises <code class="tcdoc-message[^"]*">([^<]*)</code>', html)
    # The start of the message as torch wrote it (apostrophes, quotes and all), to a sentence's end.
    kept = html_module.unescape(shown)
    assert str(error).startswith(kept)
    assert kept.endswith(".")
    assert len(kept) <= 400
    assert str(error)[-60:] not in html
