"""The examples as a reader downloads them from the built site, and a fresh environment to run them in.

These tests run only when asked for by path (``pytest tests/downloads``, ``nox -s downloads``): the
default run skips the folder (``norecursedirs`` in pyproject.toml). They need a built site
(``nox -s docs``). They build tcdoc's wheel, make a new virtual environment holding only torch
(``TCDOC_TORCH``, as in noxfile.py) and that wheel, and run each downloaded script there with plain
``python``. A second environment layered on the first adds what a reader needs for the rest:
ipykernel to execute the notebooks, and numpy and matplotlib for the examples that say they need them.
"""

from __future__ import annotations

import ast
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("TCDOC_HTML", ROOT / "docs" / "_build" / "html"))
GALLERY = "auto_examples"
TORCH = os.environ.get("TCDOC_TORCH", "torch==2.13.0")
KERNEL = "tcdoc-downloads"
# The only packages an example may import besides the standard library, torch and tcdoc; an
# example that imports one of them must be about it, and say so in its text.
EXTRAS = ("numpy", "matplotlib")
NOT_EXAMPLES = {"index.html", "sg_execution_times.html"}


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, with what to do, when there is no site to download from."""
    if not (HTML / "index.html").is_file():
        raise pytest.UsageError(f"No built site at {HTML}: build it first with `python -m nox -s docs`.")


# -- The examples, as the built site offers them -------------------------------------------------


class _Downloads(HTMLParser):
    """Collect the href of every download link (``<a class="reference download ...">``) of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and "download" in (found.get("class") or "").split() and found.get("href"):
            self.hrefs.append(str(found["href"]))


class _Outputs(HTMLParser):
    """Collect the text of each printed output of a gallery page (``div.sphx-glr-script-out``).

    Also count the values shown as HTML (``div.output_html``): sphinx-gallery shows them for a
    bare last expression of a cell, which a script run with ``python`` does not print.
    """

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.rich = 0
        self._depth = 0  # the open divs inside an output, while reading one

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div" and "output_html" in classes:
            self.rich += 1
        if tag != "div":
            return
        if self._depth:
            self._depth += 1
        elif "sphx-glr-script-out" in classes:
            self._depth = 1
            self.texts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.texts[-1] += data


def download_links(page: str) -> list[Path]:
    """Return the files that a page of the built site offers for download."""
    parser = _Downloads()
    parser.feed((HTML / page).read_text(encoding="utf-8"))
    return [HTML / unquote(urljoin(page, href)) for href in parser.hrefs]


@dataclass(frozen=True)
class Example:
    """One gallery page and the script and notebook it offers."""

    page: str
    """The page in the built site, ``auto_examples/plot_01_clone.html``."""
    script: Path
    notebook: Path

    @property
    def name(self) -> str:
        """The example's path in the gallery without suffix, ``plot_01_clone`` or ``gpu/plot_20_x``."""
        return self.page.removeprefix(f"{GALLERY}/").removesuffix(".html")

    @property
    def needs_cuda(self) -> bool:
        """Whether the example is in the GPU sub-gallery."""
        return self.name.startswith("gpu/")

    def imports(self) -> set[str]:
        """Return the modules the script imports (``tcdoc.draw``), leaving out the standard library."""
        found = self.imports_all()
        return {name for name in found if name.split(".")[0] not in {*sys.stdlib_module_names, "__future__"}}

    def outputs(self) -> list[str]:
        """Return the text outputs that the page shows, one per cell that printed, in order."""
        parser = _Outputs()
        parser.feed((HTML / self.page).read_text(encoding="utf-8"))
        return parser.texts

    def rich_outputs(self) -> int:
        """Return how many cells of the page show a value as HTML (a bare last expression's)."""
        parser = _Outputs()
        parser.feed((HTML / self.page).read_text(encoding="utf-8"))
        return parser.rich

    def times_code(self) -> bool:
        """Whether the example times code (it imports tcdoc.bench, time or torch.utils.benchmark)."""
        return bool(self.imports_all() & {"tcdoc.bench", "time", "timeit", "torch.utils.benchmark"})

    def imports_all(self) -> set[str]:
        """Return every module the script imports, the standard library's included."""
        found: set[str] = set()
        for node in ast.walk(ast.parse(self.script.read_bytes(), str(self.script))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
        return found

    def prose(self) -> str:
        """Return what the example says to its reader: its docstring and its text cells (comments)."""
        source = self.script.read_text(encoding="utf-8")
        comments = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
        return "\n".join([ast.get_docstring(ast.parse(source)) or "", *comments])


def gallery_pages() -> list[str]:
    """Return the example pages of the built gallery, sub-galleries included, as site paths."""
    pages = sorted((HTML / GALLERY).rglob("*.html"))
    return [p.relative_to(HTML).as_posix() for p in pages if p.name not in NOT_EXAMPLES]


def find_examples() -> list[Example | str]:
    """Return each gallery page's example, or a sentence saying what its page lacks."""
    examples: list[Example | str] = []
    for page in gallery_pages():
        files = {path.suffix: path for path in download_links(page)}
        missing = [kind for kind in (".py", ".ipynb") if kind not in files or not files[kind].is_file()]
        if missing:
            examples.append(f"{page}: no downloadable {' or '.join(missing)}")
        else:
            examples.append(Example(page, files[".py"], files[".ipynb"]))
    return examples


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Give a test that takes ``example`` each example of the built gallery in turn."""
    if "found" in metafunc.fixturenames:
        found = find_examples()
        ids = [e.name if isinstance(e, Example) else e.split(":")[0] for e in found]
        metafunc.parametrize("found", found, ids=ids)


@pytest.fixture
def example(found: Example | str) -> Example:
    """One example of the built gallery; a page that offers no script or notebook fails here."""
    if isinstance(found, str):
        pytest.fail(found, pytrace=False)
    return found


@pytest.fixture(scope="session")
def examples() -> list[Example]:
    """Every example of the built gallery; fails naming each page that offers no script or notebook."""
    found = find_examples()
    problems = [e for e in found if isinstance(e, str)]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    return [e for e in found if isinstance(e, Example)]


@pytest.fixture(scope="session")
def gallery_zips() -> tuple[str, list[Path]]:
    """The gallery's index page, and the zips of all examples that it offers."""
    page = f"{GALLERY}/index.html"
    return page, [path for path in download_links(page) if path.suffix == ".zip"]


# -- Environments ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def runner() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run a command in a clean environment (see ``run``)."""
    return run


def run(
    *command: str | Path, cwd: Path | None = None, timeout: float = 1800
) -> subprocess.CompletedProcess[str]:
    """Run a command without this process's Python variables; capture what it prints."""
    return subprocess.run(
        [str(c) for c in command], cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=timeout
    )


def clean_env() -> dict[str, str]:
    """Return this process's environment without the variables that point Python at other packages.

    ``TMPDIR`` goes too: nox sets it to the session's folder, deep inside the checkout, where a
    reader's machine has its usual temporary folder. (A queue of ``torch.multiprocessing`` makes a
    socket there, whose path the system keeps under 108 bytes.)
    """
    dropped = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PYTHONUSERBASE", "TMPDIR"}
    return {k: v for k, v in os.environ.items() if k not in dropped}


def checked(result: subprocess.CompletedProcess[str], what: str) -> str:
    if result.returncode != 0:
        pytest.fail(f"{what} failed (exit {result.returncode}):\n{tail(result.stderr or result.stdout)}")
    return result.stdout


def tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(checked(run(python, "-c", code), "finding site-packages").strip())


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tcdoc's wheel, built from this checkout."""
    out = tmp_path_factory.mktemp("wheel")
    build: list[str | Path] = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, ROOT]
    checked(run(*build), "building the wheel")
    (built,) = out.glob("tcdoc-*.whl")
    return built


@pytest.fixture(scope="session")
def reader(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """The python of a new virtual environment that holds only torch and tcdoc's wheel."""
    venv = tmp_path_factory.mktemp("reader") / "venv"
    checked(run(sys.executable, "-m", "venv", venv), "creating the environment")
    python = venv_python(venv)
    install: list[str | Path] = ["-m", "pip", "install", "-q", *shlex.split(TORCH), wheel]
    checked(run(python, *install), f"installing {TORCH} and {wheel.name}")
    return python


@pytest.fixture(scope="session")
def cuda(reader: Path) -> bool:
    """Whether torch in the reader's environment sees a CUDA device."""
    answer = checked(run(reader, "-c", "import torch; print(torch.cuda.is_available())"), "asking torch")
    return answer.strip() == "True"


@pytest.fixture(scope="session")
def reader_plus(tmp_path_factory: pytest.TempPathFactory, reader: Path) -> Path:
    """The python of a second environment: the reader's, plus ipykernel, numpy and matplotlib.

    It sees the reader's torch and tcdoc through a ``.pth`` file, so the reader's own environment
    stays as it was: holding only torch and tcdoc.
    """
    venv = tmp_path_factory.mktemp("reader-plus") / "venv"
    checked(run(sys.executable, "-m", "venv", venv), "creating the second environment")
    python = venv_python(venv)
    (site_packages(python) / "reader.pth").write_text(f"{site_packages(reader)}\n", encoding="utf-8")
    checked(run(python, "-m", "pip", "install", "-q", "ipykernel", *EXTRAS), "installing ipykernel, extras")
    install: list[str | Path] = ["-m", "ipykernel", "install", "--prefix", venv, "--name", KERNEL]
    checked(run(python, *install), "installing the kernel")
    return python


@pytest.fixture(scope="session")
def kernel(reader_plus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The name of a Jupyter kernel that runs in ``reader_plus``, visible to nbclient in this process."""
    venv = reader_plus.parent.parent
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(venv / "share" / "jupyter"))
        patch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path_factory.mktemp("jupyter-runtime")))
        patch.setenv("JUPYTER_PLATFORM_DIRS", "1")  # the future default; silences jupyter_core's warning
        yield KERNEL
