"""The cost findings that an example prints, in the build's language.

An example prints :func:`tcdoc.bench.findings` as English lines, so that its script, run alone,
prints what its page shows; the Chinese edition reuses the output the English build captured.
The findings are computed from the sweep alone (the same sweep, the same sentences), so the
English build records them in every language while the example runs: :func:`scraper`, named in
``sphinx_gallery_conf["image_scrapers"]`` and called after each code block, finds every
:class:`tcdoc.bench.Sweep` among the example's variables and writes each sentence with its
translations to ``<example>.findings.json`` beside the example's generated page. In a build in
another language, :func:`translate_printed_findings` replaces each printed line that is an
English sentence of that file with its translation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from tcdoc_site._figures import LANGUAGES

__all__ = ["findings_file", "scraper", "translate_printed_findings"]

# What this build has recorded so far, by example: {language: {English sentence: translation}}.
_RECORDED: dict[Path, dict[str, dict[str, str]]] = {}


def findings_file(page: str | Path) -> Path:
    """Return where the findings of the example whose generated page is ``page`` are recorded.

    >>> findings_file("docs/auto_examples/plot_19_cost.rst").as_posix()
    'docs/auto_examples/plot_19_cost.findings.json'
    """
    return Path(page).with_suffix(".findings.json")


def scraper(block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any], **kwargs: Any) -> str:
    """Record the findings of every sweep the example holds, in every language; add nothing to the page."""
    from tcdoc.bench import Sweep, findings

    sweeps = [value for value in block_vars["example_globals"].values() if isinstance(value, Sweep)]
    if not sweeps:
        return ""
    path = findings_file(block_vars["target_file"])
    recorded = _RECORDED.setdefault(path, {language: {} for language in LANGUAGES})
    for sweep in sweeps:
        found = findings(sweep)
        for language in LANGUAGES:
            recorded[language].update(zip(found.sentences, found.translations[language], strict=True))
    path.write_text(json.dumps(recorded, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")
    return ""


def translate_printed_findings(app: Sphinx, doctree: nodes.document) -> None:
    """In a build in another language, print each recorded finding in an example's output in that language."""
    language = app.config.language
    path = findings_file(Path(app.srcdir, app.env.docname))
    if language not in LANGUAGES or not path.is_file():
        return
    translations: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))[language]
    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        lines = [translations.get(line, line) for line in text.split("\n")]
        if lines != text.split("\n"):
            translated = "\n".join(lines)
            block.rawsource = translated  # Sphinx highlights rawsource where it equals the text
            block.clear()
            block += nodes.Text(translated)
