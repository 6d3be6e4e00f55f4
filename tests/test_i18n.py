"""The Chinese edition: the extension's words come from its catalogue, measured values stay out of pages."""

from __future__ import annotations

import io
from pathlib import Path
from types import ModuleType

import pytest
import torch
from babel.messages.mofile import read_mo
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

import tcdoc
from tcdoc._names import LABELS
from tcdoc.sphinxext._i18n import LOCALE_DIR, generated
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return load_script("tools/i18n.py")


def test_the_extension_catalogue_lists_every_word_the_extension_writes(tool: ModuleType) -> None:
    messages = set(tool.extension_messages())
    assert set(LABELS.values()) <= messages
    assert {op.summary for op in tcdoc.operations(include_unavailable=True)} <= messages
    assert {scenario.summary for scenario in tcdoc.scenarios(include_unavailable=True)} <= messages
    assert set(tcdoc.QUESTIONS.values()) <= messages
    # Literals marked _() in the extension, and the templates answers() fills.
    assert {"Measured at build time with {environment}.", "yes", "no", "n/a"} <= messages
    assert "yes: {new_bytes} new bytes" in messages


def test_the_shipped_mo_is_the_po_compiled_and_complete(tool: ModuleType) -> None:
    assert tool.check_extension() == []
    catalog = read_mo(io.BytesIO((LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "tcdoc.mo").read_bytes()))
    yes = catalog.get("yes")
    assert yes is not None
    assert yes.string == "是"
    measured = catalog.get("Measured at build time with {environment}.")
    assert measured is not None
    template = measured.string
    assert isinstance(template, str)
    assert template.count("{environment}") == 1


def test_every_translated_template_keeps_its_placeholders(tool: ModuleType) -> None:
    catalog = tool._read(tool.EXTENSION_PO)
    broken = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        wanted = sorted(part.split("}")[0] for part in message.id.split("{")[1:] if "}" in part)
        found = sorted(part.split("}")[0] for part in message.string.split("{")[1:] if "}" in part)
        if wanted != found:
            broken.append(f"{message.id!r}: {found} instead of {wanted}")
    assert not broken, "\n".join(broken)


def test_generated_marks_text_untranslatable_and_leaves_inline_nodes_alone() -> None:
    paragraph = nodes.paragraph("", "")
    inline = nodes.inline("", "a claim")
    paragraph += inline
    table = nodes.table()
    entry = nodes.paragraph("", "yes")
    table += entry
    roots: list[nodes.Element] = [paragraph, table]
    assert generated(roots) == roots
    assert paragraph["translatable"] is False
    assert entry["translatable"] is False
    assert "translatable" not in inline  # Sphinx would move an inline placeholder's children


def test_answers_fill_translated_templates() -> None:
    x = torch.ones(3, requires_grad=True)
    words = {"yes: {new_bytes} new bytes": "是, {new_bytes} 个新字节", "yes": "是"}
    answers = tcdoc.answers(tcdoc.compare(x, x.clone()), lambda text: words.get(text, text))
    assert answers["memory"] == "是, 12 个新字节"
    assert answers["new_object"] == "是"
    assert tcdoc.answers(tcdoc.compare(x, x.clone()))["memory"] == "yes: 12 new bytes"


# jieba, which Sphinx's Chinese search uses, leaves its dictionary file open.
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.sphinx("html", testroot="facts", freshenv=True, confoverrides={"language": "zh_CN"})
def test_a_chinese_build_writes_the_extensions_words_in_chinese(app: SphinxTestApp) -> None:
    app.build()
    doctree = app.env.get_doctree("index")
    stamps = [p.astext() for p in doctree.findall(nodes.paragraph) if "tcdoc-stamp" in p["classes"]]
    assert stamps
    assert not any(stamp.startswith("Measured") for stamp in stamps), stamps
    assert all(tcdoc.environment().torch in stamp for stamp in stamps)
    table = next(t for t in doctree.findall(nodes.table) if "tcdoc-summary" in t["classes"])
    assert "是" in table.astext()
    assert "New memory?" not in table.astext()


@pytest.mark.sphinx("gettext", testroot="facts", freshenv=True)
def test_page_catalogues_hold_no_measured_value(app: SphinxTestApp) -> None:
    app.build()
    catalogue = (Path(app.outdir) / "index.pot").read_text(encoding="utf-8")
    assert "Measured at build time" not in catalogue
    assert torch.__version__ not in catalogue
    assert "Facts" in catalogue  # the page's own title is there to translate
