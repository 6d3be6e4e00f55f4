"""The GPU examples' gallery thumbnails: drawn by a script from tcdoc.draw, named by each example.

Without CUDA the GPU examples do not run, so they make no figure for sphinx-gallery to turn into a
thumbnail; each names a committed picture instead (``docs/_thumbnails``). The built gallery's
thumbnails are checked in tests/site.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import matplotlib
import pytest

from tests.conftest import load_script

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GPU_EXAMPLES = sorted((ROOT / "examples" / "gpu").glob("*.py"))
SETTING = re.compile(r"^# sphinx_gallery_thumbnail_path = \"([^\"]+)\"$", re.MULTILINE)
PNG = b"\x89PNG\r\n\x1a\n"


def script() -> ModuleType:
    return load_script("docs/_thumbnails/draw_gpu_thumbnails.py")


def test_the_script_draws_one_thumbnail_per_gpu_example() -> None:
    assert sorted(script().THUMBNAILS) == [p.stem for p in GPU_EXAMPLES]


@pytest.mark.parametrize("example", GPU_EXAMPLES, ids=lambda p: p.stem)
def test_each_gpu_example_names_its_committed_thumbnail(example: Path) -> None:
    settings = SETTING.findall(example.read_text())
    assert settings == [f"_thumbnails/{example.stem}.png"], f"{example.name}: thumbnail settings {settings}"
    picture = DOCS / settings[0]
    assert picture.read_bytes().startswith(PNG), f"{picture} is not a PNG"
    chinese = picture.with_name(f"{example.stem}.zh_CN.png")  # the Chinese edition's
    assert chinese.read_bytes().startswith(PNG), f"{chinese} is not a PNG"


def test_the_script_writes_a_picture_with_alt_text(tmp_path: Path) -> None:
    module = script()
    path = module.write("plot_gpu_03_pinned", tmp_path)
    assert path.read_bytes().startswith(PNG)
    figure = module.THUMBNAILS["plot_gpu_03_pinned"]()
    assert figure.get_suptitle().startswith("host: a new object. x: Tensor float32")
    chinese = module.write("plot_gpu_03_pinned", tmp_path, "zh_CN")
    assert chinese.name == "plot_gpu_03_pinned.zh_CN.png"
    assert chinese.read_bytes().startswith(PNG)
