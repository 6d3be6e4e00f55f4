"""The complete reference: a page per family of operations, and every new name shown somewhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tcdoc
from tcdoc._names import FAMILIES, MODULE_OPERATION_NAMES, OPERATION_NAMES

ROOT = Path(__file__).resolve().parents[1]
MATRIX_PAGES = ROOT / "docs" / "reference" / "matrix"


def test_each_family_has_its_matrix_page_in_the_toctree() -> None:
    pages = {page.stem: page.read_text(encoding="utf-8") for page in MATRIX_PAGES.glob("*.md")}
    assert set(pages) == set(FAMILIES)
    for family, text in pages.items():
        assert f":family: {family}\n" in text
        assert text.startswith(f"# {FAMILIES[family]}\n")
    index = (ROOT / "docs" / "reference" / "matrix.md").read_text(encoding="utf-8")
    assert re.findall(r"^matrix/(\w+)$", index, re.MULTILINE) == list(FAMILIES)


def conf_setting(name: str) -> object:
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"docs/conf.py sets no {name}")


def conf_operation_docs() -> dict[str, str]:
    """Each operation's page: ``tcdoc_operation_docs``, or ``tcdoc_operation_default_doc``."""
    docs = conf_setting("tcdoc_operation_docs")
    default = conf_setting("tcdoc_operation_default_doc")
    assert isinstance(docs, dict)
    assert isinstance(default, str)
    assert set(docs) <= {*OPERATION_NAMES, *MODULE_OPERATION_NAMES}
    assert default not in docs.values(), "an operation that links to the default page need not be listed"
    return {name: docs.get(name, default) for name in (*OPERATION_NAMES, *MODULE_OPERATION_NAMES)}


def test_every_operation_links_to_a_page_that_shows_it() -> None:
    docs = conf_operation_docs()
    for name, docname in docs.items():
        if docname.startswith("auto_examples/"):
            script = ROOT / "examples" / f"{docname.removeprefix('auto_examples/')}.py"
            assert script.is_file(), (name, docname)
        else:
            assert (ROOT / "docs" / f"{docname}.md").is_file(), (name, docname)


def test_the_new_examples_use_only_torch_and_tcdoc_and_draw_their_point() -> None:
    for name in ("plot_20_inference_mode", "plot_21_indexing_views", "plot_22_module_to"):
        source = (ROOT / "examples" / f"{name}.py").read_text(encoding="utf-8")
        # What the page shows: the hidden blocks that check its claims are left out of it.
        source = re.sub(
            r"# sphinx_gallery_start_ignore\n.*?# sphinx_gallery_end_ignore\n", "", source, flags=re.S
        )
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
        }
        assert imported <= {"torch", "tcdoc", "copy"}, (name, imported)
        assert "torch.manual_seed(" in source
        assert "tcdoc.draw." in source
        assert "# sphinx_gallery_thumbnail_number = 1" in source
        assert source.count("# %%") >= 6


def test_every_special_scenario_has_a_section_on_the_special_tensors_page() -> None:
    page = (ROOT / "docs" / "explanation" / "special-tensors.md").read_text(encoding="utf-8")
    special = [s.name for s in tcdoc.scenarios() if s.group == "special"]
    shown = set(re.findall(r":scenarios: (\w+)\n", page))
    assert set(special) <= shown
