"""tcdoc.sphinxext renders what tcdoc measures: checked on a tiny Sphinx project."""

from __future__ import annotations

import dataclasses
import io
import re
import sys
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

import tcdoc
from tcdoc.sphinxext import run_command

PAGE = """\
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


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[str, str]:
    docs = tmp_path_factory.mktemp("site")
    (docs / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (docs / "index.rst").write_text(PAGE)
    warnings = io.StringIO()
    with docutils_namespace():  # keep each app's registrations to itself
        app = Sphinx(docs, docs, docs / "_build", docs / "_doctrees", "html", status=None, warning=warnings)
        app.build()
    return Path(docs / "_build" / "index.html").read_text(encoding="utf-8"), warnings.getvalue()


def test_builds_without_warnings(built):
    _, warnings = built
    assert warnings == ""


def test_summary_shows_the_measured_answers(built):
    html, _ = built
    for operation in ("clone", "detach"):
        report = tcdoc.probe(operation, "non_leaf").properties
        for words in tcdoc.answers(report).values():
            assert words in html
    error = tcdoc.probe("deepcopy", "non_leaf").error
    assert f"raises {error.type}" in html


def test_matrix_lists_errors_and_warnings_verbatim(built):
    html, _ = built
    error = tcdoc.probe("deepcopy", "non_leaf").error
    (warning,) = tcdoc.probe("torch_tensor", "leaf_requires_grad").warnings
    assert 'id="matrix-deepcopy"' in html
    assert error.message.split(".")[0] in html
    assert warning.message.split(",")[0] in html


def test_roles_show_single_facts(built):
    html, _ = built
    shares = tcdoc.probe("detach", "no_grad").properties.shares_storage
    assert (
        f'<code class="tcdoc-fact docutils literal notranslate"><span class="pre">{shares}</span></code>'
        in html
    )
    assert tcdoc.environment().torch in html


def test_nothing_to_copy_shows_n_a_with_its_reason_never_no(built):
    html, _ = built
    assert '<abbr title="n/a: x has no .grad">n/a</abbr>' in html
    assert '<abbr title="n/a: x has no Python attributes">n/a</abbr>' in html
    note = "does not apply: under “copies .grad”, x has no .grad; under “copies attributes”, x has no Python"
    assert note in html
    assert '<span class="pre">n/a:</span> <span class="pre">x</span>' in html  # the fact role, in words
    assert tcdoc.probe("deepcopy", "parameter").properties.copies_grad is False  # a real "no" stays "no"


def test_a_result_that_is_not_a_tensor_shows_n_a_and_why(built):
    html, _ = built
    assert '<abbr title="n/a: y is not a tensor">n/a</abbr>' in html
    assert "under “requires_grad”, “same dtype”, y is not a tensor" in html
    assert '<span class="pre">n/a:</span> <span class="pre">y</span>' in html


def test_modules_table_and_answers_are_measured(built):
    html, _ = built
    for op in tcdoc.module_operations():
        assert op.code.replace('"', "&quot;") in html
    report = tcdoc.probe_module("module_to_float64").outcome
    for words in tcdoc.module_answers(report).values():
        assert words.replace("'", "\u2019") in html  # docutils' smart quotes
    assert f'<span class="pre">{report.changes_source}</span>' in html
    assert "x\u2019s tensors have no .grad" in html  # the optimizer rows, in the note


def test_matrix_family_and_groups(tmp_path):
    page = "X\n=\n\n.. tcdoc-matrix::\n   :family: in_place\n"
    assert build(tmp_path, page) == ""
    html = (tmp_path / "_b" / "index.html").read_text(encoding="utf-8")
    in_place = [op.name for op in tcdoc.operations() if op.family == "in_place"]
    assert [f'id="matrix-{name}"' in html for name in in_place] == [True] * len(in_place)
    assert 'id="matrix-clone"' not in html
    # Each operation has a table per group: the special tensors' properties are left out of the first.
    assert html.count("Not shown, since they do not apply to any x of this table") >= len(in_place)
    assert "unknown family" in build(tmp_path, "X\n=\n\n.. tcdoc-matrix::\n   :family: nope\n")


def build(root: Path, page: str) -> str:
    """Build a one-page project; return the warnings it printed."""
    (root / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (root / "index.rst").write_text(page)
    warnings = io.StringIO()
    Sphinx(root, root, root / "_b", root / "_d", "html", status=None, warning=warnings).build()
    return warnings.getvalue()


def test_an_error_fact_of_an_operation_that_did_not_raise_is_a_build_error(tmp_path):
    warnings = build(tmp_path, "X\n=\n\nIt raises :tcdoc-fact:`clone/no_grad/error.type`.\n")
    assert "clone did not raise on no_grad" in warnings


def test_a_cell_not_run_shows_why_on_the_page(tmp_path, monkeypatch):
    from tcdoc.sphinxext import _tables

    monkeypatch.setitem(sys.modules, "numpy", None)
    _tables.build_matrix.cache_clear()
    try:
        page = "X\n=\n\n.. tcdoc-matrix::\n   :operations: numpy_roundtrip\n   :scenarios: no_grad\n"
        assert build(tmp_path, page) == ""
    finally:
        _tables.build_matrix.cache_clear()
    html = (tmp_path / "_b" / "index.html").read_text(encoding="utf-8")
    assert "not run: needs numpy" in html
    assert "raises" not in html.split('id="matrix-numpy_roundtrip"')[1]


def test_command_directive_runs_the_cli():
    status, output = run_command(["explain", "nope"])
    assert status == 2
    assert "unknown operation 'nope'" in output
    status, output = run_command(["--help"])
    assert status == 0
    assert "usage: tcdoc" in output


def test_unknown_fact_is_a_build_error(tmp_path):
    (tmp_path / "conf.py").write_text('extensions = ["tcdoc.sphinxext"]\n')
    (tmp_path / "index.rst").write_text("X\n=\n\n:tcdoc-fact:`clone/no_grad/colour`\n")
    warnings = io.StringIO()
    Sphinx(
        tmp_path, tmp_path, tmp_path / "_b", tmp_path / "_d", "html", status=None, warning=warnings
    ).build()
    assert "no field 'colour'" in warnings.getvalue()


# -- Claims --------------------------------------------------------------------------------


def test_a_claim_renders_its_registry_sentence(tmp_path):
    from tcdoc._claims import get_claim, plain

    page = "X\n=\n\n:tcdoc-claim:`detach.copies-nothing`.\n\n:tcdoc-claim:`look-alikes.constructors`.\n"
    assert build(tmp_path, page) == ""
    html = (tmp_path / "_b" / "index.html").read_text(encoding="utf-8")
    assert '<span class="tcdoc-claim">It copies nothing: it is a second window onto the bytes of' in html
    assert plain(get_claim("detach.copies-nothing").text) in plain(re.sub(r"<[^>]+>", "", html))
    # A role inside a claim is a role on the page, as it would be in the page's own words.
    assert '<code class="xref py py-func docutils literal notranslate"><span class="pre">torch.tensor' in html


def test_a_false_claim_is_a_build_error(tmp_path, monkeypatch):
    from tcdoc import _claims
    from tcdoc.sphinxext import _claims as claims_extension

    def wrong(matrix):
        _claims.expect(matrix.get("clone", "no_grad").properties.shares_storage, "clone shares no memory")

    monkeypatch.setitem(
        _claims._registry(), "test.clone-shares", _claims.Claim("test.clone-shares", "x", wrong)
    )
    claims_extension.verdict.cache_clear()
    try:
        warnings = build(tmp_path, "X\n=\n\n:tcdoc-claim:`test.clone-shares`\n")
    finally:
        claims_extension.verdict.cache_clear()
    assert "ERROR: tcdoc-claim 'test.clone-shares' is false: clone shares no memory" in warnings


def test_an_unknown_claim_is_a_build_error(tmp_path):
    warnings = build(tmp_path, "X\n=\n\n:tcdoc-claim:`detach.nope`\n")
    assert "tcdoc-claim: no claim 'detach.nope'; this page's are: detach." in warnings


class _Recorder:
    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []

    def __getattr__(self, level):
        return lambda message, *args, **kwargs: self.messages.append((level, message % args))


def test_quoted_claims_are_checked_when_the_example_page_is_read(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from tcdoc import _claims
    from tcdoc.sphinxext import _claims as claims_extension

    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "plot_a.py").write_text('"""A\n=\n\nThe sky is green.\n"""\n\n# %%\n# Clones copy.\nx = 1\n')
    never = _claims.Claim("plot_a.green", "The sky is green", lambda m: _claims.expect(False, "it is blue"))
    held = _claims.Claim("plot_a.copy", "Clones copy", lambda m: None, quoted_in=("plot_a.py",))
    missing = _claims.Claim("plot_a.gone", "Views copy", lambda m: None, quoted_in=("plot_a.py",))
    never = dataclasses.replace(never, quoted_in=("plot_a.py",))
    for claim in (never, held, missing):
        monkeypatch.setitem(_claims._registry(), claim.id, claim)
    recorder = _Recorder()
    monkeypatch.setattr(claims_extension, "logger", recorder)
    config = _Config(
        sphinx_gallery_conf={"examples_dirs": "../examples", "gallery_dirs": "auto"},
        tcdoc_device="cpu",
        tcdoc_gpu_execute=False,
    )
    app = SimpleNamespace(
        confdir=str(tmp_path / "docs"), config=config, env=SimpleNamespace(docname="auto/plot_a")
    )
    claims_extension.verdict.cache_clear()
    try:
        claims_extension.check_quoted_claims(app, None)
    finally:
        claims_extension.verdict.cache_clear()
    assert ("error", "claim 'plot_a.green', quoted in plot_a.py, is false: it is blue") in recorder.messages
    assert ("error", "claim 'plot_a.gone' is not quoted word for word in plot_a.py") in recorder.messages
    assert not [m for m in recorder.messages if "plot_a.copy" in m[1]]


class _Config:
    """A Sphinx config stand-in: attributes, and ``in``."""

    def __init__(self, **values) -> None:
        self.__dict__.update(values)

    def __contains__(self, key: str) -> bool:
        return key in self.__dict__


def test_scenarios_by_group_and_bad_names_in_module_tables(tmp_path):
    page = "X\n=\n\n.. tcdoc-scenarios::\n   :group: special\n"
    assert build(tmp_path, page) == ""
    html = (tmp_path / "_b" / "index.html").read_text(encoding="utf-8")
    assert '<span class="pre">inference</span>' in html
    assert '<span class="pre">no_grad</span>' not in html
    assert "unknown group 'odd'" in build(tmp_path, "X\n=\n\n.. tcdoc-scenarios::\n   :group: odd\n")
    bad = "X\n=\n\n.. tcdoc-modules::\n   :operations: state\n"
    assert "tcdoc-modules: unknown module operation 'state'" in build(tmp_path, bad)
    fact = "X\n=\n\n:tcdoc-fact:`state_dict/no_grad/new_object`\n"
    assert "a module-level operation's scenario is 'trained_model'" in build(tmp_path, fact)


def test_a_very_long_message_is_cut_at_a_sentence_and_says_so(tmp_path):
    error = tcdoc.probe("view", "sparse").error
    assert len(str(error)) > 400  # torch lists every dispatch key
    page = "X\n=\n\n.. tcdoc-matrix::\n   :operations: view\n   :scenarios: sparse\n"
    assert build(tmp_path, page) == ""
    html = (tmp_path / "_b" / "index.html").read_text(encoding="utf-8")
    assert f"({len(str(error))} characters in all; the JSON of tcdoc matrix has the whole message)" in html
    assert "raises NotImplementedError: Could not run" in html
    assert str(error)[-60:] not in html
