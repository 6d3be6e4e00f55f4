"""Claims on pages and in examples, checked in the build (see :mod:`tcdoc.claims`).

A page states a claim in its own words, as a MyST span: ``[words]{#id .claim}`` (MyST's
``attrs_inline`` extension). The setting ``tcdoc_checks`` names the package of the site's
checks, one module per page, named after it (:func:`tcdoc.claims.module_name`): the span's id
is the id of a claim in that module.

- When a page's source is read (``source-read``, in the English words whatever the build's
  language), each span's words must be the words its check holds (``words=``): changed words
  are a build error at the span's line that shows the old words beside the new, so that
  someone reads the check again. A claim whose words cover more than its section's scope
  (``tcdoc-scope``) is an error there too.
- When its doctree is read (``doctree-read``), each claim is checked against the build's
  matrix, in its section's scope: a false claim, or a check that cannot run, is a build error
  at the span's line; a claim that needs a missing package or CUDA device is a warning that
  says which. Placeholders of :class:`~tcdoc.claims.Only` and :class:`~tcdoc.claims.Every`
  claims are filled in, in the build's language.
- A gallery page's claims are the :func:`~tcdoc.claims.claim` calls of its example script,
  whose words the example's text must say word for word (an error at the call's line in the
  script); sphinx-gallery runs them, and a false one fails the build with its traceback. A
  claim that cannot run inside its example lies in the example's checks module, with its
  ``quote``.

A page is read again when its checks module changed. Verdicts are kept on the build
environment for the build that made them.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from tcdoc.sphinxext._i18n import translate
from tcdoc.sphinxext._tables import build_matrix

if TYPE_CHECKING:
    from collections.abc import Set
    from types import ModuleType

    from sphinx.environment import BuildEnvironment

    from tcdoc.claims import AnyClaim, Scope, Verdict

__all__ = ["check_claims", "check_example_claims", "check_words", "setup_claims"]

logger = logging.getLogger(__name__)

CLAIM_CLASS = "claim"


def setup_claims(app: Sphinx) -> None:
    """Register the settings and the event handlers of claims (called from ``setup()``)."""
    app.connect("builder-inited", _start_build)
    app.connect("source-read", check_words)
    app.connect("doctree-read", check_claims)
    app.connect("doctree-read", check_example_claims)
    app.connect("env-get-outdated", _pages_whose_checks_changed)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)


# -- State on the environment ----------------------------------------------------------------


def _checks_read(env: BuildEnvironment) -> dict[str, tuple[str, str]]:
    """Return, per page, the checks module its claims came from, and that module's digest then."""
    if not hasattr(env, "tcdoc_checks_read"):
        env.tcdoc_checks_read = {}  # type: ignore[attr-defined]
    found: dict[str, tuple[str, str]] = env.tcdoc_checks_read  # type: ignore[attr-defined]
    return found


def _verdicts(env: BuildEnvironment) -> dict[tuple[str, str], Verdict]:
    """Return the verdicts of this build, by checks module and claim id (made new each build)."""
    if not hasattr(env, "tcdoc_verdicts"):
        env.tcdoc_verdicts = {}  # type: ignore[attr-defined]
    found: dict[tuple[str, str], Verdict] = env.tcdoc_verdicts  # type: ignore[attr-defined]
    return found


def _start_build(app: Sphinx) -> None:
    """Forget the last build's verdicts: each build checks its claims afresh."""
    app.env.tcdoc_verdicts = {}  # type: ignore[attr-defined]
    if app.config.tcdoc_checks and app.confdir and str(app.confdir) not in sys.path:
        sys.path.insert(0, str(app.confdir))  # the checks package lies beside conf.py


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _checks_read(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
    mine, theirs = _checks_read(env), _checks_read(other)
    mine.update({name: theirs[name] for name in docnames if name in theirs})
    _verdicts(env).update(_verdicts(other))


def _pages_whose_checks_changed(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """Read a page again when the checks module its claims came from changed (``env-get-outdated``)."""
    stale = []
    for docname, (module, digest) in _checks_read(env).items():
        if docname not in removed and _digest(module) != digest:
            stale.append(docname)
    return stale


# -- Finding a page's checks -----------------------------------------------------------------


def _gallery_setting(app: Sphinx, key: str, default: str) -> str:
    """Return the first folder of a sphinx-gallery setting that may be a string or a list."""
    conf = app.config.sphinx_gallery_conf if "sphinx_gallery_conf" in app.config else {}
    value = conf.get(key, default)
    return str(value if isinstance(value, str) else value[0])


def _gallery(app: Sphinx) -> str:
    return _gallery_setting(app, "gallery_dirs", "auto_examples")


def _module_of(app: Sphinx, docname: str) -> str:
    from tcdoc.claims import module_name

    return module_name(app.config.tcdoc_checks, docname, gallery=_gallery(app))


def _file_of(module: str) -> Path | None:
    spec = importlib.util.find_spec(module) if _package_found(module) else None
    return Path(spec.origin) if spec is not None and spec.origin else None


def _package_found(module: str) -> bool:
    try:
        return importlib.util.find_spec(module.rsplit(".", 1)[0]) is not None
    except ModuleNotFoundError:
        return False


def _digest(module: str) -> str:
    path = _file_of(module)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else ""


def _load(module: str) -> ModuleType:
    """Import a checks module as it is now on disk (a changed one is imported again)."""
    if module in sys.modules:
        return importlib.reload(sys.modules[module])
    return importlib.import_module(module)


def _claims_of(app: Sphinx, docname: str) -> dict[str, AnyClaim] | None:
    """Return the claims of a page's checks module, recorded for re-reading; None where it has none."""
    from tcdoc.claims import claims_of

    if not app.config.tcdoc_checks:
        return None
    module = _module_of(app, docname)
    if _file_of(module) is None:
        return None
    found = claims_of(_load(module))
    _checks_read(app.env)[docname] = (module, _digest(module))
    return found


# -- Words: the page's words against its checks ------------------------------------------------


def check_words(app: Sphinx, docname: str, source: list[str]) -> None:
    """Match each claim span's words to its check's words, and to its section's scope (``source-read``)."""
    from tcdoc.claims import Scope, claim_spans, same_words, wider_than_scope, words_changed

    spans = claim_spans(source[0])
    if not spans:
        return
    module = _module_of(app, docname) if app.config.tcdoc_checks else "(no tcdoc_checks setting)"
    known = _claims_of(app, docname)
    if known is None:
        _error(
            f"{docname} has claims, but there is no checks module {module} for it", (docname, spans[0].line)
        )
        return
    scopes = _scopes(source[0])
    seen = set()
    for span in spans:
        where = (docname, span.line)
        if span.id in seen:
            _error(f"two claims of {docname} are called {span.id!r}", where)
            continue
        seen.add(span.id)
        claim = known.get(span.id)
        if claim is None:
            _error(f"claim {span.id!r} has no check in {module}; its ids are: {', '.join(known)}", where)
            continue
        if claim.quote:
            _error(
                f"claim {span.id!r} of {module} is a quote, for an example: a page's claim has words=", where
            )
            continue
        try:
            claim.fill(span.words)
        except ValueError as exc:
            _error(str(exc), where)
        if not same_words(claim.words, span.words):
            _error(words_changed(span.id, module, claim.words, span.words), where)
        wider = wider_than_scope(claim, span.words, scopes.get(span.id, Scope()))
        if wider:
            _error(f"claim {span.id!r} says more than its section's scope: {wider}", where)
    unused = [claim_id for claim_id, claim in known.items() if claim_id not in seen and not claim.quote]
    if unused:
        _error(f"{module} has checks that no claim on {docname} uses: {', '.join(unused)}", (docname, 1))


def _scopes(source: str) -> dict[str, Scope]:
    """Return the scope each claim of a page inherits; none where one is malformed (its directive says so)."""
    from tcdoc.claims import scopes_of

    try:
        return scopes_of(source)
    except ValueError:
        return {}


def _page_scopes(app: Sphinx, docname: str) -> tuple[dict[str, Scope], dict[str, int]]:
    """Return the scope of each claim of a page, and the line its words start on, from its English source.

    A claim's inline node knows only its paragraph's first line; an error names the claim's own.
    """
    from tcdoc.claims import claim_spans

    source = Path(app.env.doc2path(docname)).read_text(encoding="utf-8")
    return _scopes(source), {span.id: span.line for span in claim_spans(source)}


def _error(message: str, location: tuple[str, int] | nodes.Node | str) -> None:
    logger.error(message, location=location, type="tcdoc", subtype="claim")


# -- Checking claims ----------------------------------------------------------------------------


def verdict(app: Sphinx, module: str, claim: AnyClaim, scope: Scope | None = None) -> Verdict:
    """Check a claim once per build, against the one matrix of the build, in its section's scope."""
    from tcdoc.claims import verify

    found = _verdicts(app.env)
    key = (module, claim.id)
    if key not in found:
        found[key] = verify(claim, build_matrix(app.env), scope)
    return found[key]


def check_claims(app: Sphinx, doctree: nodes.document) -> None:
    """Check each claim of a page and fill in its placeholders (``doctree-read``)."""
    spans = [node for node in doctree.findall(nodes.inline) if CLAIM_CLASS in node["classes"]]
    if not spans:
        return
    docname = app.env.docname
    known = _claims_of(app, docname)
    if known is None:
        return  # check_words reported it, with the page's English line
    module = _module_of(app, docname)
    ids = _other_ids(doctree, spans)
    scopes, lines = _page_scopes(app, docname)
    for span in spans:
        claim_id = span["ids"][0] if span["ids"] else ""
        claim = known.get(claim_id)
        where = (docname, lines[claim_id]) if claim_id in lines else span
        if claim is None:
            if app.config.language not in (None, "", "en"):
                _error(f"the translation of {docname} has a claim {claim_id!r} that the page has not", span)
            continue
        if claim_id in ids:
            _error(f"claim {claim_id!r} has the id of another element of {docname}: give it another", span)
        _fill(span, claim)
        found = verdict(app, module, claim, scopes.get(claim_id))
        if found.held is False:
            _error(f"claim {claim_id!r} of {docname} is false: {found.detail}", where)
        elif found.held is None:
            logger.warning(
                "claim %r of %s was not checked: %s", claim_id, docname, found.detail,
                location=where, type="tcdoc", subtype="claim",
            )  # fmt: skip


def _other_ids(doctree: nodes.document, spans: list[nodes.inline]) -> set[str]:
    """Return the ids in a page that are not claims' (a heading's anchor, a target)."""
    mine = {id(span) for span in spans}
    found: set[str] = set()
    for node in doctree.findall(nodes.Element):
        if id(node) not in mine:
            found.update(node.get("ids", []))
    return found


def _fill(span: nodes.inline, claim: AnyClaim) -> None:
    """Replace the ``{ops}``, ``{among}`` and ``{scenarios}`` of a span by the claim's own names."""
    from tcdoc.claims import fill_placeholders

    values = claim.values(translate)
    if not values:
        return
    for text in list(span.findall(nodes.Text)):
        words = str(text)
        filled = fill_placeholders(words, values)
        if filled != words:
            text.parent.replace(text, _code_nodes(filled))


def _code_nodes(text: str) -> list[nodes.Node]:
    """Turn text with ``backquoted`` code into Text and literal nodes, as MyST would."""
    parts = text.split("`")
    found: list[nodes.Node] = []
    for index, part in enumerate(parts):
        if not part:
            continue
        found.append(nodes.literal(part, part) if index % 2 else nodes.Text(part))
    return found


# -- Claims in examples ---------------------------------------------------------------------------


def check_example_claims(app: Sphinx, doctree: nodes.document) -> None:
    """Check that an example says the words of each of its claims (``doctree-read`` of its page).

    The :func:`~tcdoc.claims.claim` calls of the script must quote its text word for word; a
    claim that lies in the example's checks module (one that cannot run inside the example)
    is checked here too.
    """
    from tcdoc.claims import example_claims, example_text, quoted

    script = _example_source(app, app.env.docname)
    if script is None:
        return
    source = script.read_text(encoding="utf-8")
    name = script.relative_to(_examples_dir(app)).as_posix()
    text = "\n\n".join(example_text(source))
    try:
        calls = example_claims(source)
    except ValueError as exc:
        _error(f"{name}: {exc}", f"{script}")
        calls = []
    for words, line in calls:
        if not quoted(words, text):
            _error(
                f"claim({words!r}) of {name} is not said word for word in the example's text: "
                "read its check again, and copy the text's new words into it",
                f"{script}:{line}",
            )
    _check_quoted_claims(app, script, name, text)


def _check_quoted_claims(app: Sphinx, script: Path, name: str, text: str) -> None:
    """Check the claims of an example's checks module: each quoted in its text, and true."""
    from tcdoc.claims import quoted

    known = _claims_of(app, app.env.docname)
    if not known:
        return
    module = _module_of(app, app.env.docname)
    for claim in known.values():
        if not claim.quote:
            _error(
                f"claim {claim.id!r} of {module} has words=: an example's claim gives its quote", f"{script}"
            )
            continue
        if not quoted(claim.quote, text):
            _error(f"claim {claim.id!r} of {module} is not quoted word for word in {name}", f"{script}")
            continue
        found = verdict(app, module, claim)
        if found.held is False:
            _error(f"claim {claim.id!r}, quoted in {name}, is false: {found.detail}", f"{script}")
        elif claim.needs_cuda and not getattr(app.config, "tcdoc_gpu_execute", None):
            # This build shows the GPU example without running it, and says so on its page.
            logger.info("claim %r, quoted in %s, was not checked: %s", claim.id, name, found.detail)
        elif found.held is None:
            logger.warning(
                "claim %r, quoted in %s, was not checked: %s", claim.id, name, found.detail,
                type="tcdoc", subtype="claim",
            )  # fmt: skip


def _examples_dir(app: Sphinx) -> Path:
    return (Path(app.confdir) / _gallery_setting(app, "examples_dirs", "../examples")).resolve()


def _example_source(app: Sphinx, docname: str) -> Path | None:
    """Find the example script behind a gallery page; None for any other page."""
    from tcdoc.claims import gallery_example

    script = gallery_example(docname, _gallery(app))
    path = _examples_dir(app) / script if script is not None else None
    return path if path is not None and path.is_file() else None
