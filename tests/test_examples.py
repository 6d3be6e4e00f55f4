"""The gallery's examples as sources: short enough to read, and their figures' descriptions whole.

What they print, against what their pages show, is the downloads run's (tests/downloads).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]
example_words = load_script("tools/example_words.py")
EXAMPLES = example_words.examples()


def test_the_count_reads_docstring_and_comments_only(tmp_path: Path) -> None:
    script = tmp_path / "plot_00_x.py"
    script.write_text(
        '"""Title\n=====\n\nTwo words."""\n\n# %%\n# three more words\n'
        "x = 1  # and four here\n# sphinx_gallery_thumbnail_number = 2\ntext = '# not a comment'\n",
        encoding="utf-8",
    )
    assert example_words.words(script) == 1 + 1 + 2 + 3 + 3  # "=====" is one word too


def test_the_count_leaves_out_hidden_blocks(tmp_path: Path) -> None:
    script = tmp_path / "plot_00_x.py"
    script.write_text(
        '"""Title."""\n\n# %%\n# Shown words.\nx = 1\n# sphinx_gallery_start_ignore\n'
        "# a comment the page never shows\nassert x == 1\n# sphinx_gallery_end_ignore\n# after it\n",
        encoding="utf-8",
    )
    assert example_words.words(script) == 1 + 2 + 2


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_prose_is_within_the_limit(path: Path) -> None:
    count = example_words.words(path)
    assert count <= example_words.LIMIT, (
        f"{path.relative_to(ROOT)}: {count} words of prose, over {example_words.LIMIT}: "
        "say it in fewer words, or move reference detail to a page of docs/reference"
    )
