"""Every build and check of tcdoc.

Sessions: docs, tests and lint run by default; docs-live is for writing pages; bench measures what
each copy costs, and how far apart three runs of the cost page's sweep are (``nox -s bench``,
minutes); docs-gpu builds on a CUDA machine, GPU examples required. tests runs under coverage.py
and fails below 90% of tcdoc's lines.
browser and downloads read the site that docs built as a reader would: in headless Chromium, and by
running every download (CI runs them after docs). release-check builds and tries the sdist and the
wheel as the release workflow does; inventories refreshes docs/_inventories.
PyTorch comes from TCDOC_TORCH (default "torch==2.13.0", the CPU wheel these machines hold): pip
arguments, for example ``TCDOC_TORCH="torch==2.5.1" nox -s tests`` or, for the CPU wheel from
PyTorch's own index, ``TCDOC_TORCH="torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"``.
Its first word may be ``floor``, the oldest release pyproject.toml allows (``torch>=2.4`` gives
``torch~=2.4.0``), or ``newest``. TCDOC_SPHINX=floor installs Sphinx and the Sphinx extensions
and theme at the lower bounds that pyproject.toml declares (the matrix of .github/workflows/docs.yml
tests them); unset, or ``newest``, their newest releases.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import nox
from packaging.requirements import Requirement

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "virtualenv"  # uv would not find the local torch wheel
nox.options.sessions = ["docs", "tests", "lint"]
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml("pyproject.toml")
# The packages whose declared lower bounds TCDOC_SPHINX=floor installs: Sphinx, docutils, and the
# extensions and theme the site builds with. numpy and matplotlib keep their newest releases: their
# floors have no wheels for the newest Python.
SPHINX_FAMILY = {
    "docutils",
    "furo",
    "myst-parser",
    "sphinx",
    "sphinx-autobuild",
    "sphinx-gallery",
    "sphinx-intl",
    "sphinx-sitemap",
    "sphinxext-opengraph",
}
SPHINX = os.environ.get("TCDOC_SPHINX", "newest")


def floor(requirement: str) -> str:
    """Return the lower bound that ``requirement`` declares (``sphinx>=8.1`` gives ``8.1``)."""
    bounds = [spec.version for spec in Requirement(requirement).specifier if spec.operator == ">="]
    if len(bounds) != 1:
        raise ValueError(f"{requirement!r} declares no single lower bound (>=)")
    return bounds[0]


def torch_requirement(value: str) -> str:
    """Return TCDOC_TORCH as pip arguments: ``floor`` and ``newest`` name the release (see above)."""
    first, _, rest = value.strip().partition(" ")
    (declared,) = [r for r in PYPROJECT["project"]["dependencies"] if Requirement(r).name == "torch"]
    if first == "floor":  # its newest patch release: torch>=2.4 gives torch~=2.4.0, that is 2.4.1
        lowest = floor(declared)
        first = f"torch~={lowest}.0" if lowest.count(".") == 1 else f"torch~={lowest}"
    elif first == "newest":
        first = "torch"
    return f"{first} {rest}".strip()


def sphinx_floors() -> list[str]:
    """Return ``name==floor`` for every package of SPHINX_FAMILY that pyproject.toml bounds below.

    Read from every dependency group and from the ``sphinx`` extra, so that what is tested is what
    is declared: a constraints file of them makes pip install exactly those releases.
    """
    declared = list(PYPROJECT["project"]["optional-dependencies"]["sphinx"])
    for group in PYPROJECT["dependency-groups"]:
        declared += [r for r in nox.project.dependency_groups(PYPROJECT, group) if isinstance(r, str)]
    pins: dict[str, str] = {}
    for requirement in declared:
        name = Requirement(requirement).name.lower()
        if name in SPHINX_FAMILY and ">=" in requirement:
            pin = f"{name}=={floor(requirement)}"
            if pins.setdefault(name, pin) != pin:
                raise ValueError(f"pyproject.toml declares two lower bounds for {name}: {pins[name]}, {pin}")
    return sorted(pins.values())


TORCH = torch_requirement(os.environ.get("TCDOC_TORCH", "torch==2.13.0"))
DOCS = ROOT / "docs"
HTML = DOCS / "_build" / "html"
# The suite's workers: one per core, each test file kept on one worker, so that a module's
# fixtures (a Sphinx build, a wheel) are made once. A later -n in the posargs wins.
TEST_WORKERS = ["-n", "auto", "--dist", "loadfile"]
# Every workflow, whichever suffix it has: zizmor reads the folder, check-jsonschema these files.
WORKFLOWS = sorted(
    str(path.relative_to(ROOT))
    for path in (ROOT / ".github" / "workflows").iterdir()
    if path.suffix in {".yml", ".yaml"}
)
# sphinx-lint reads the reST: the examples' gallery headers (and the scripts' whitespace), and under
# docs/ neither the catalogues (MyST, which it would read as reST) nor what the builds write.
SPHINX_LINT = ["docs", "examples"] + [
    f"--ignore=docs/{path}"
    for path in ("locales", "_build", "auto_examples", "gen_modules", "sg_execution_times.rst")
]


@nox.session
def docs(session: nox.Session) -> None:
    """Build the site strictly, executing every example, into docs/_build/html."""
    install(session, "docs")
    session.run(*sphinx_build(), *session.posargs)
    session.log(f"Open {HTML / 'index.html'}")


@nox.session(name="docs-zh")
def docs_zh(session: nox.Session) -> None:
    """Build the Simplified Chinese edition into docs/_build/html/zh_CN, after docs.

    It reuses the examples' output that the docs session left (nothing is executed twice) and
    fails first if a message of the English pages is untranslated or fuzzy (tools/i18n.py).
    """
    require_site(session)
    install(session, "docs")
    session.run("python", "tools/i18n.py", "check")
    doctrees = DOCS / "_build" / "doctrees-zh_CN"
    session.run(*sphinx_build("zh_CN"), "-D", "language=zh_CN", "-d", str(doctrees), *session.posargs)
    session.log(f"Open {HTML / 'zh_CN' / 'index.html'}")


@nox.session(name="i18n-update", default=False)
def i18n_update(session: nox.Session) -> None:
    """Merge the English pages' messages into docs/locales (new ones start untranslated)."""
    install(session, "docs")
    session.run("python", "tools/i18n.py", "update")


@nox.session(name="docs-gpu", default=False)
def docs_gpu(session: nox.Session) -> None:
    """Build the site on a CUDA machine: the GPU examples must run, and facts are measured on CUDA.

    Fails at once, saying why, where torch finds no CUDA device. Needs a CUDA build of torch:
    ``torch==2.13.0`` from PyPI is one on Linux; set TCDOC_TORCH to choose another.
    """
    install(session, "docs")
    found = session.run("python", "-c", "import tcdoc; print(tcdoc.cuda_available())", silent=True)
    if not isinstance(found, str) or found.strip() != "True":
        session.error(
            f"docs-gpu needs a CUDA device, and {TORCH} in this session finds none. Run it on a "
            "machine with CUDA, or run the docs session, which shows the GPU examples without output."
        )
    env = {"TCDOC_REQUIRE_GPU": "1", "TCDOC_DEVICE": "cuda"}
    session.run(*sphinx_build(), *session.posargs, env=env)
    session.log(f"Open {HTML / 'index.html'}")


@nox.session(name="docs-live", default=False)
def docs_live(session: nox.Session) -> None:
    """Serve the site and rebuild it when a page, an example, tcdoc or the site's extension changes.

    sphinx-autobuild watches the source folder, docs/, and so the site's extension in docs/_ext;
    each rebuild is a new sphinx-build process, which imports the extension's code as it is now.
    """
    install(session, "docs-live")
    session.run(
        "sphinx-autobuild",
        *sphinx_build()[1:],
        "--watch",
        "examples",
        "--watch",
        "tcdoc",
        # sphinx-gallery writes these during the build: watching them would rebuild forever.
        "--ignore",
        "*/auto_examples/*",
        "--ignore",
        "*/gen_modules/*",
        "--ignore",
        "*/sg_execution_times.rst",
        *session.posargs,
    )


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite, doctests of tcdoc included, under coverage.py, and print the report.

    pytest-xdist spreads the tests over the machine's cores (``-n auto``; give ``-n 0`` after
    ``--`` to run them in this one process), and pytest-cov measures each worker, combines their
    data and prints the report. It fails below 90% of tcdoc's lines (``[tool.coverage]`` in
    pyproject.toml); lines that only a subprocess runs (a sphinx-build, ``python -m tcdoc``) do
    not count. The data file is build/.coverage, for ``.nox/tests/bin/coverage html`` afterwards.
    """
    install(session, "tests")
    (ROOT / "build").mkdir(exist_ok=True)
    session.run("pytest", *TEST_WORKERS, "--cov", "--cov-report=term", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Check style, types, spelling, the reST, pyproject.toml, the workflows and .readthedocs.yaml.

    ruff; mypy --strict (its files in pyproject.toml); codespell (its skips in pyproject.toml);
    sphinx-lint on the reST under docs/ and examples/; validate-pyproject; zizmor, offline, on the
    workflows; check-jsonschema with its vendored schemas. .pre-commit-config.yaml runs the same.
    """
    install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    session.run("codespell")
    session.run("sphinx-lint", *SPHINX_LINT)
    session.run("validate-pyproject", "pyproject.toml")
    session.run("zizmor", "--offline", ".github/workflows")
    session.run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *WORKFLOWS)
    session.run("check-jsonschema", "--builtin-schema", "vendor.readthedocs", ".readthedocs.yaml")


@nox.session(name="build-speed", default=False)
def build_speed(session: nox.Session) -> None:
    """Print the cold, no-op and one-example-changed build times of the site."""
    install(session, "docs")
    session.run("python", "benchmarks/build_speed.py")


@nox.session(default=False)
def reproducible(session: nox.Session) -> None:
    """Build the site twice from scratch and fail if the HTML differs beyond timing fields.

    ``nox -s reproducible -- --first docs/_build/html`` takes the docs session's build as the first
    of the two, and builds only once more (both need the same SOURCE_DATE_EPOCH), as CI does.
    """
    install(session, "docs")
    session.run("python", "benchmarks/reproducible.py", *session.posargs)


@nox.session(default=False)
def linkcheck(session: nox.Session) -> None:
    """Check the external links of the site (needs internet access, unlike every other session)."""
    install(session, "docs")
    session.run(
        "sphinx-build", "-W", "--keep-going", "-b", "linkcheck", str(DOCS), str(DOCS / "_build" / "linkcheck")
    )


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Time each copy method (1 KiB to 256 MiB) into build/bench.json, the cost page's spread, the matrix.

    Then runs the cost page's quick sweep three times and prints how far apart the runs' medians
    are, and whether any sentence of the page changed between them (benchmarks/cost_spread.py,
    which exits with 1 if one did; the session reports it and carries on). Needs quiet.
    """
    session.install(*shlex.split(TORCH))
    session.install("-e", ".")
    out = ROOT / "build" / "bench.json"  # build/ is ignored by git
    out.parent.mkdir(exist_ok=True)
    session.run("tcdoc", "bench", "--full", "--out", str(out), *session.posargs)
    session.run("python", "benchmarks/cost_spread.py", success_codes=[0, 1])
    session.run("python", "benchmarks/matrix_time.py")  # the probe's own cost: the whole matrix


@nox.session(default=False, reuse_venv=False)
def snapshot(session: nox.Session) -> None:
    """Write docs/_snapshots/torch-X.Y.Z.json: the whole matrix of the torch that TCDOC_TORCH names.

    A new environment each run (PyPI's builds are several GB: delete .nox/snapshot afterwards, and
    pip keeps no copy in its cache), holding that torch, numpy for the cells that need it, and this
    tcdoc; tools/write_snapshot.py measures every cell twice, on the CPU, and labels the file.
    """
    env = {"PIP_NO_CACHE_DIR": "1"}
    session.install(*shlex.split(TORCH), "numpy", env=env)
    session.install("--no-deps", "-e", ".", env=env)
    session.run("python", "tools/write_snapshot.py", "--requirement", TORCH, *session.posargs)


@nox.session(default=False)
def browser(session: nox.Session) -> None:
    """Read the built site in headless Chromium (Debian's /usr/bin/chromium) and take screenshots."""
    require_site(session)
    session.install(*shlex.split(TORCH))  # the tests ask torch whether the GPU examples could run here
    session.install(*nox.project.dependency_groups(PYPROJECT, "browser"))
    session.run("pytest", "tests/browser", *session.posargs)
    session.log(f"Screenshots in {DOCS / '_build' / 'screenshots'}")


@nox.session(default=False)
def downloads(session: nox.Session) -> None:
    """Run every downloadable example and notebook in a new environment of torch and tcdoc's wheel."""
    require_site(session)
    session.install(*nox.project.dependency_groups(PYPROJECT, "downloads"))
    # The environments it makes (over 1 GB) go in this session's folder, replaced on each run.
    basetemp = Path(session.create_tmp()) / "pytest"
    session.run(
        "pytest", "tests/downloads", f"--basetemp={basetemp}", *session.posargs, env={"TCDOC_TORCH": TORCH}
    )


@nox.session(name="release-check", default=False)
def release_check(session: nox.Session) -> None:
    """Build the sdist and the wheel into dist/, check them, and run an example against the wheel.

    The steps of .github/workflows/release.yml before it publishes: ``python -m build`` (the wheel
    is built from the sdist), ``twine check --strict``, then a new environment holding only torch
    and the wheel with its ``plot`` extra, where an example and the ``tcdoc`` command must run.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "release"))
    dist = ROOT / "dist"  # ignored by git
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(dist), str(ROOT))
    built = sorted(dist.iterdir())
    session.run("twine", "check", "--strict", *map(str, built))
    (wheel,) = dist.glob("*.whl")
    tmp = Path(session.create_tmp()).resolve()
    venv = tmp / "reader"
    shutil.rmtree(venv, ignore_errors=True)
    session.run("python", "-m", "venv", str(venv))
    python = str(venv / "bin" / "python")
    session.run(python, "-m", "pip", "install", "-q", *shlex.split(TORCH), f"{wheel}[plot]", external=True)
    session.chdir(tmp)  # away from the checkout, so that only the wheel's tcdoc can be found
    found = session.run(python, "-c", "import tcdoc; print(tcdoc.__file__)", external=True, silent=True)
    if not isinstance(found, str) or not found.strip().startswith(str(venv)):
        session.error(f"the new environment imports tcdoc from {found!r}, not from {wheel.name}")
    env = {"MPLBACKEND": "Agg"}  # draw without a display
    session.run(python, str(ROOT / "examples" / "plot_01_clone.py"), external=True, env=env)
    session.run(python, "-m", "tcdoc", "explain", "clone", external=True)
    for path in built:
        session.log(f"{path.name}: {path.stat().st_size / 1024:.1f} KiB")


@nox.session(default=False)
def inventories(session: nox.Session) -> None:
    """Write docs/_inventories: the PyTorch, Python, NumPy and matplotlib names that the site uses."""
    install(session, "inventories")
    session.run("python", "tools/make_inventories.py", *session.posargs)


# -- Helpers ---------------------------------------------------------------------------------


def install(session: nox.Session, group: str) -> None:
    """Install the chosen torch first, so that tcdoc's own ``torch`` requirement is already met.

    With TCDOC_SPHINX=floor, the Sphinx family at its declared lower bounds (:func:`sphinx_floors`).
    """
    session.install(*shlex.split(TORCH))
    session.install("-e", ".", *nox.project.dependency_groups(PYPROJECT, group), *sphinx_constraints(session))


def sphinx_constraints(session: nox.Session) -> list[str]:
    """Return pip's arguments for TCDOC_SPHINX: none for the newest releases, constraints for the floors."""
    if SPHINX == "newest":
        return []
    if SPHINX != "floor":
        session.error(f"TCDOC_SPHINX is {SPHINX!r}: set it to 'floor' or 'newest', or leave it unset")
    constraints = Path(session.create_tmp()) / "sphinx-floors.txt"
    constraints.write_text("\n".join(sphinx_floors()) + "\n", encoding="utf-8")
    session.log(f"TCDOC_SPHINX=floor: {', '.join(sphinx_floors())}")
    return ["-c", str(constraints)]


def require_site(session: nox.Session) -> None:
    """Stop with what to do when there is no built site to test."""
    if not (HTML / "index.html").is_file():
        session.error(f"No built site at {HTML}: run `python -m nox -s docs` first.")


def sphinx_build(language: str = "en") -> list[str]:
    """Return the strict sphinx-build command: nitpicky, warnings are errors, all reported.

    The English edition goes to docs/_build/html, another one to a folder of its own inside it.
    """
    out = HTML if language == "en" else HTML / language
    return ["sphinx-build", "-n", "-W", "--keep-going", "-b", "html", str(DOCS), str(out)]
