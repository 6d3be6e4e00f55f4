"""Claims on pages: the ``tcdoc-claim`` role, and the check of the claims that examples quote.

``{tcdoc-claim}`id``` renders the sentence of claim ``id`` from ``tcdoc._claims`` (so the words
checked are the words shown) after checking it against the build's matrix: a false claim is a
build error, and one that could not be checked (an optional package missing) a warning. An
example quotes its claims word for word instead, since its text must read without tcdoc; when
the build reads an example's page, each claim that names the example in ``quoted_in`` is
checked the same way, and must be quoted there.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from tcdoc.sphinxext._i18n import generated, translate
from tcdoc.sphinxext._tables import build_matrix

if TYPE_CHECKING:
    from tcdoc._claims import Verdict

__all__ = ["ClaimRole", "check_quoted_claims", "verdict"]

logger = logging.getLogger(__name__)


@functools.cache
def verdict(device: str, claim_id: str) -> Verdict:
    """Check a claim once per build process, against the one matrix of the build."""
    from tcdoc._claims import get_claim, verify  # imports torch: only a page with a claim needs it

    return verify(get_claim(claim_id), build_matrix(device))


class ClaimRole(SphinxRole):
    """``{tcdoc-claim}`id```: the sentence of a claim, checked in the build, rendered from the registry."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        from tcdoc._claims import get_claim

        reporter = self.inliner.reporter
        try:
            claim = get_claim(self.text)
        except ValueError as exc:
            return [], [reporter.error(f"tcdoc-claim: {exc}", line=self.lineno)]
        messages: list[nodes.system_message] = []
        found = verdict(self.config.tcdoc_device, claim.id)
        if found.held is False:
            messages.append(
                reporter.error(f"tcdoc-claim {claim.id!r} is false: {found.detail}", line=self.lineno)
            )
        elif found.held is None:
            messages.append(reporter.warning(f"tcdoc-claim {claim.id!r} was not checked: {found.detail}"))
        sentence = translate(claim.text)  # the build's language; the check reads the English words
        text = sentence if _is_myst(self.inliner) else _as_rest(sentence)
        container = nodes.inline(classes=["tcdoc-claim"])
        # The inliner is its own memo: it holds the reporter, document and language that parse reads.
        children, problems = self.inliner.parse(text, self.lineno, self.inliner, container)  # type: ignore[arg-type]
        container.extend(children)
        return generated([container]), [*messages, *problems]


def _is_myst(inliner: object) -> bool:
    return type(inliner).__name__ == "MockInliner"


def _as_rest(text: str) -> str:
    """Rewrite a claim's MyST inline markup as reST, for a reST page.

    >>> _as_rest("{py:func}`copy.copy` keeps `x` alive")
    ':py:func:`copy.copy` keeps ``x`` alive'
    """
    rewritten = []
    for part in re.split(r"(\{[\w:.-]+\}`[^`]*`|`[^`]*`)", text):
        role = re.fullmatch(r"\{([\w:.-]+)\}`([^`]*)`", part)
        if role:
            rewritten.append(f":{role[1]}:`{role[2]}`")
        elif part.startswith("`"):
            rewritten.append(f"`{part}`")
        else:
            rewritten.append(part)
    return "".join(rewritten)


def check_quoted_claims(app: Sphinx, doctree: nodes.document) -> None:
    """Check the claims an example quotes when the build reads its page (``doctree-read``)."""
    source = _example_source(app, app.env.docname)
    if source is None:
        return
    from tcdoc._claims import claims, example_text, quoted

    name = source.relative_to(_examples_dir(app)).as_posix()
    text = "\n\n".join(example_text(source.read_text(encoding="utf-8")))
    for claim in claims():
        if name not in claim.quoted_in:
            continue
        if not quoted(claim, text):
            logger.error(
                "claim %r is not quoted word for word in %s",
                claim.id,
                name,
                location=app.env.docname,
                type="tcdoc",
                subtype="claim",
            )
            continue
        found = verdict(app.config.tcdoc_device, claim.id)
        if found.held is False:
            logger.error(
                "claim %r, quoted in %s, is false: %s",
                claim.id,
                name,
                found.detail,
                location=app.env.docname,
                type="tcdoc",
                subtype="claim",
            )
        elif claim.needs_cuda and not getattr(app.config, "tcdoc_gpu_execute", None):
            # This build shows the GPU example without running it, and says so on its page.
            logger.info("claim %r, quoted in %s, was not checked: %s", claim.id, name, found.detail)
        elif found.held is None:
            logger.warning(
                "claim %r, quoted in %s, was not checked: %s",
                claim.id,
                name,
                found.detail,
                type="tcdoc",
                subtype="claim",
            )


def _gallery_setting(app: Sphinx, key: str, default: str) -> str:
    """Return the first folder of a sphinx-gallery setting that may be a string or a list."""
    conf = app.config.sphinx_gallery_conf if "sphinx_gallery_conf" in app.config else {}
    value = conf.get(key, default)
    return str(value if isinstance(value, str) else value[0])


def _examples_dir(app: Sphinx) -> Path:
    return (Path(app.confdir) / _gallery_setting(app, "examples_dirs", "../examples")).resolve()


def _example_source(app: Sphinx, docname: str) -> Path | None:
    """Find the example script behind a gallery page; None for any other page."""
    gallery = _gallery_setting(app, "gallery_dirs", "auto_examples")
    if not docname.startswith(f"{gallery}/"):
        return None
    script = _examples_dir(app) / f"{docname.removeprefix(f'{gallery}/')}.py"
    return script if script.is_file() else None
