"""Claims on pages and in examples, checked in the build (see :mod:`tcdoc.claims`).

A page states a claim in its own words, as a MyST span: ``[words]{#id .claim}`` (MyST's
``attrs_inline`` extension). The setting ``tcdoc_checks`` names the package of the site's
checks, one module per page, named after it (:func:`tcdoc.claims.module_name`): the span's id
is the id of a claim in that module.

- When a page's source is read (``source-read``, in the English words whatever the build's
  language), each span's words must match its claim's pin: words changed since the check was
  pinned are a build error that prints the new pin, so that someone reads the check again.
  With ``tcdoc_claims_repin = True`` the new pins are listed instead (``tools/claims.py pins``).
- When its doctree is read (``doctree-read``), each claim is checked against the build's
  matrix: a false claim, or a check that cannot run, is a build error at the span's line; a
  claim that needs a missing package or CUDA device is a warning that says which. Placeholders
  of :class:`~tcdoc.claims.Only` and :class:`~tcdoc.claims.Every` claims are filled in, in
  the build's language.
- A gallery page's checks are those of its example script: each claim gives its ``quote``,
  which the example's text must say word for word.

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

    from tcdoc.claims import AnyClaim, Verdict

__all__ = ["check_claims", "check_quoted_claims", "pin_claims", "setup_claims"]

logger = logging.getLogger(__name__)

CLAIM_CLASS = "claim"


def setup_claims(app: Sphinx) -> None:
    """Register the settings and the event handlers of claims (called from ``setup()``)."""
    app.add_config_value("tcdoc_claims_repin", False, "", types=frozenset({bool}))
    app.connect("builder-inited", _start_build)
    app.connect("source-read", pin_claims)
    app.connect("doctree-read", check_claims)
    app.connect("doctree-read", check_quoted_claims)
    app.connect("env-get-outdated", _pages_whose_checks_changed)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _print_new_pins)


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


def _new_pins(env: BuildEnvironment) -> list[str]:
    if not hasattr(env, "tcdoc_new_pins"):
        env.tcdoc_new_pins = []  # type: ignore[attr-defined]
    found: list[str] = env.tcdoc_new_pins  # type: ignore[attr-defined]
    return found


def _start_build(app: Sphinx) -> None:
    """Forget the last build's verdicts and pins: each build checks its claims afresh."""
    app.env.tcdoc_verdicts = {}  # type: ignore[attr-defined]
    app.env.tcdoc_new_pins = []  # type: ignore[attr-defined]
    if app.config.tcdoc_checks and app.confdir and str(app.confdir) not in sys.path:
        sys.path.insert(0, str(app.confdir))  # the checks package lies beside conf.py


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _checks_read(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
    mine, theirs = _checks_read(env), _checks_read(other)
    mine.update({name: theirs[name] for name in docnames if name in theirs})
    _verdicts(env).update(_verdicts(other))
    _new_pins(env).extend(_new_pins(other))


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


def _gallery(app: Sphinx) -> str:
    conf = app.config.sphinx_gallery_conf if "sphinx_gallery_conf" in app.config else {}
    value = conf.get("gallery_dirs", "auto_examples")
    return str(value if isinstance(value, str) else value[0])


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


# -- Pins: the page's words against its checks ------------------------------------------------


def pin_claims(app: Sphinx, docname: str, source: list[str]) -> None:
    """Match each claim span's words to its check's pin (``source-read``, English words)."""
    from tcdoc.claims import claim_spans, pin

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
                f"claim {span.id!r} of {module} is a quote, for an example: a page's claim has a pin", where
            )
            continue
        try:
            claim.fill(span.words)
        except ValueError as exc:
            _error(str(exc), where)
        new = pin(span.words)
        if new == claim.pin:
            continue
        if app.config.tcdoc_claims_repin:
            _new_pins(app.env).append(f"{module} {span.id}: pin={new!r}  # {span.words}")
            continue
        _error(
            f"the words of claim {span.id!r} changed since its check was pinned: read its check in "
            f"{module} again, and if it still fails whenever the new words are false, pin them: "
            f'pin="{new}" (tools/claims.py pins lists every new pin)',
            where,
        )
    unused = [claim_id for claim_id, claim in known.items() if claim_id not in seen and not claim.quote]
    if unused:
        _error(f"{module} has checks that no claim on {docname} uses: {', '.join(unused)}", (docname, 1))


def _print_new_pins(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None and app.config.tcdoc_claims_repin:
        pins = _new_pins(app.env)
        logger.info("tcdoc: %d claims with new words", len(pins))
        for line in pins:
            logger.info("    %s", line)


def _error(message: str, location: tuple[str, int] | nodes.Node) -> None:
    logger.error(message, location=location, type="tcdoc", subtype="claim")


# -- Checking claims ----------------------------------------------------------------------------


def verdict(app: Sphinx, module: str, claim: AnyClaim) -> Verdict:
    """Check a claim once per build, against the one matrix of the build."""
    from tcdoc.claims import verify

    found = _verdicts(app.env)
    key = (module, claim.id)
    if key not in found:
        found[key] = verify(claim, build_matrix(app.env))
    return found[key]


def check_claims(app: Sphinx, doctree: nodes.document) -> None:
    """Check each claim of a page and fill in its placeholders (``doctree-read``)."""
    spans = [node for node in doctree.findall(nodes.inline) if CLAIM_CLASS in node["classes"]]
    if not spans:
        return
    docname = app.env.docname
    known = _claims_of(app, docname)
    if known is None:
        return  # pin_claims reported it, with the page's English line
    module = _module_of(app, docname)
    ids = _other_ids(doctree, spans)
    for span in spans:
        claim_id = span["ids"][0] if span["ids"] else ""
        claim = known.get(claim_id)
        if claim is None:
            if app.config.language not in (None, "", "en"):
                _error(f"the translation of {docname} has a claim {claim_id!r} that the page has not", span)
            continue
        if claim_id in ids:
            _error(f"claim {claim_id!r} has the id of another element of {docname}: give it another", span)
        _fill(span, claim)
        found = verdict(app, module, claim)
        if found.held is False:
            _error(f"claim {claim_id!r} of {docname} is false: {found.detail}", span)
        elif found.held is None:
            logger.warning(
                "claim %r of %s was not checked: %s", claim_id, docname, found.detail,
                location=span, type="tcdoc", subtype="claim",
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


# -- Quotes in examples ---------------------------------------------------------------------------


def check_quoted_claims(app: Sphinx, doctree: nodes.document) -> None:
    """Check the claims an example quotes when the build reads its page (``doctree-read``)."""
    source = _example_source(app, app.env.docname)
    if source is None:
        return
    known = _claims_of(app, app.env.docname)
    if not known:
        return
    from tcdoc.claims import example_text, quoted

    module = _module_of(app, app.env.docname)
    name = source.relative_to(_examples_dir(app)).as_posix()
    text = "\n\n".join(example_text(source.read_text(encoding="utf-8")))
    for claim in known.values():
        if not claim.quote:
            _error(
                f"claim {claim.id!r} of {module} has a pin: an example's claim gives its quote",
                (app.env.docname, 1),
            )
            continue
        if not quoted(claim.quote, text):
            _error(
                f"claim {claim.id!r} of {module} is not quoted word for word in {name}", (app.env.docname, 1)
            )
            continue
        found = verdict(app, module, claim)
        if found.held is False:
            _error(f"claim {claim.id!r}, quoted in {name}, is false: {found.detail}", (app.env.docname, 1))
        elif claim.needs_cuda and not getattr(app.config, "tcdoc_gpu_execute", None):
            # This build shows the GPU example without running it, and says so on its page.
            logger.info("claim %r, quoted in %s, was not checked: %s", claim.id, name, found.detail)
        elif found.held is None:
            logger.warning(
                "claim %r, quoted in %s, was not checked: %s", claim.id, name, found.detail,
                type="tcdoc", subtype="claim",
            )  # fmt: skip


def _gallery_setting(app: Sphinx, key: str, default: str) -> str:
    """Return the first folder of a sphinx-gallery setting that may be a string or a list."""
    conf = app.config.sphinx_gallery_conf if "sphinx_gallery_conf" in app.config else {}
    value = conf.get(key, default)
    return str(value if isinstance(value, str) else value[0])


def _examples_dir(app: Sphinx) -> Path:
    return (Path(app.confdir) / _gallery_setting(app, "examples_dirs", "../examples")).resolve()


def _example_source(app: Sphinx, docname: str) -> Path | None:
    """Find the example script behind a gallery page; None for any other page."""
    gallery = _gallery(app)
    if not docname.startswith(f"{gallery}/"):
        return None
    script = _examples_dir(app) / f"{docname.removeprefix(f'{gallery}/')}.py"
    return script if script.is_file() else None
