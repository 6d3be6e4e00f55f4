"""The examples' figures in each language: drawn by the English build, shown by each edition.

The Chinese edition does not run the examples again (``nox -s docs-zh`` reuses what the English
build generated), so the English build draws every figure in both languages. sphinx-gallery's
image scraper (:func:`scraper`, named in ``sphinx_gallery_conf["image_scrapers"]``) saves each
figure as usual, and beside it ``<name>.zh_CN.png`` with its alt text in ``<name>.zh_CN.txt``:

- a figure that :mod:`tcdoc.draw` or :mod:`tcdoc.bench` drew is drawn again from its model in
  Chinese (:func:`tcdoc.draw.redraw`);
- any other figure (an example's own matplotlib plot) is copied and its words replaced from
  :data:`PLAIN_FIGURE_WORDS`, translated in this extension's catalogue; a word that the list lacks
  stops the build, so that no English label reaches the Chinese edition unnoticed.

Both need a font with Chinese characters (Debian's ``fonts-noto-cjk``). Where none is installed
the English build draws no Chinese variants, and says so; the Chinese build then stops at the
first figure without one, with what to do (:func:`use_translated_figures`).
"""

from __future__ import annotations

import gettext
import pickle
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

from tcdoc._locale import COMMA
from tcdoc_site._catalog import CATALOG, LOCALE_DIR

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "LANGUAGES",
    "PLAIN_FIGURE_WORDS",
    "scale_drawn_thumbnails",
    "scraper",
    "translate_plain",
    "use_translated_figures",
    "variant",
]

logger = logging.getLogger(__name__)

LANGUAGES = ("zh_CN",)
"""The languages, besides English, that every figure is drawn in."""

PLAIN_FIGURE_WORDS = (
    # plot_12_logging_losses
    "total += loss: saved bytes reachable from total",
    "batches added to total",
    "MiB held by the graph",
    # plot_18_forward_ad
    "cos(x)",
    "tangent of y.clone()",
    "y = sin(x); tangent of y.detach(): {value}",
)
"""The words of the examples' own plots, as messages of the ``tcdoc_site`` catalogue.

A ``{name}`` stands for what the example filled in (a value it printed), kept as it is.
"""

# A text with a word of two letters or more is words to translate; tick labels, a lone "x" and
# numbers are not.
_WORDS = re.compile(r"[A-Za-z]{2,}")


def variant(path: str | Path, language: str, suffix: str = ".png") -> PurePosixPath:
    """Return the path of a figure's variant in ``language``: ``a/b_001.png`` -> ``a/b_001.zh_CN.png``.

    >>> variant("/auto_examples/images/sphx_glr_plot_01_clone_001.png", "zh_CN").as_posix()
    '/auto_examples/images/sphx_glr_plot_01_clone_001.zh_CN.png'
    >>> variant("/a/b_001.png", "zh_CN", ".txt").name
    'b_001.zh_CN.txt'
    """
    posix = PurePosixPath(Path(path).as_posix())
    return posix.with_name(f"{posix.stem}.{language}{suffix}")


def scraper(block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any], **kwargs: Any) -> str:
    """Save the open figures as sphinx-gallery's matplotlib scraper does, and each one in every language."""
    import matplotlib.pyplot as plt
    from sphinx_gallery.scrapers import matplotlib_scraper

    figures = [plt.figure(number) for number in plt.get_fignums()]
    iterator = block_vars["image_path_iterator"]
    before = len(iterator)
    rst: str = matplotlib_scraper(block, block_vars, gallery_conf, **kwargs)  # closes the figures
    paths = iterator.paths[before:]
    if len(paths) != len(figures):
        raise ExtensionError(
            f"tcdoc_site: {len(figures)} figures were open, sphinx-gallery saved {len(paths)}"
        )
    file_conf = block_vars.get("file_conf") or {}
    thumbnail = file_conf.get("thumbnail_number", None if "thumbnail_path" in file_conf else 1)
    for figure, path in zip(figures, paths, strict=True):
        for language in LANGUAGES:
            saved = _save_variant(figure, Path(path), language)
            if saved is not None and path == iterator.image_path.format(thumbnail):
                _save_thumbnail(saved, Path(path), language, gallery_conf)
    return rst


def _save_variant(figure: Figure, path: Path, language: str) -> Path | None:
    """Save ``figure`` in ``language`` beside ``path``, with its alt text; return where.

    Return ``None`` where no CJK font is installed, having drawn nothing.
    """
    from tcdoc import draw
    from tcdoc.draw._render import cjk_font

    try:
        cjk_font()
    except RuntimeError as exc:
        logger.info("tcdoc_site: no %s variant of %s: %s", language, path.name, exc)
        return None
    translated = draw.redraw(figure, language) or translate_plain(figure, _translator(language))
    target = Path(variant(path, language))
    translated.savefig(target, facecolor=translated.get_facecolor(), dpi=figure.dpi)
    target.with_suffix(".txt").write_text(_titles(translated, language), encoding="utf-8")
    return target


def _save_thumbnail(image: Path, path: Path, language: str, gallery_conf: dict[str, Any]) -> None:
    """Scale the thumbnail figure's variant to ``thumb/<name>_thumb.<language>.png``, like sphinx-gallery."""
    from sphinx_gallery.utils import scale_image

    name = re.sub(r"_\d+$", "", path.stem)  # sphx_glr_plot_01_clone_001 -> sphx_glr_plot_01_clone
    thumb = path.parent / "thumb" / f"{name}_thumb.png"
    thumb.parent.mkdir(exist_ok=True)
    width, height = gallery_conf["thumbnail_size"]
    scale_image(image, Path(variant(thumb, language)), width, height)


def translate_plain(figure: Figure, t: Callable[[str], str]) -> Figure:
    """Return a copy of ``figure`` with its words translated by ``t`` from :data:`PLAIN_FIGURE_WORDS`.

    Raises
    ------
    ExtensionError
        For a text with words that :data:`PLAIN_FIGURE_WORDS` does not list.

    """
    from matplotlib.text import Text

    from tcdoc.draw._render import use_cjk_font

    copy: Figure = pickle.loads(pickle.dumps(figure))  # a closed figure: pyplot does not take the copy
    for text in copy.findobj(Text):
        words = text.get_text()
        if not _WORDS.search(words):
            continue
        for message in PLAIN_FIGURE_WORDS:
            found = re.fullmatch(_pattern(message), words, re.DOTALL)
            if found:
                text.set_text(t(message).format(**found.groupdict()))
                break
        else:
            raise ExtensionError(
                f"tcdoc_site: an example's figure says {words!r}, which has no translation: add it to "
                "PLAIN_FIGURE_WORDS in docs/_ext/tcdoc_site/_figures.py and translate it "
                "(python tools/i18n.py update, then tcdoc_site.po)"
            )
    use_cjk_font(copy)
    return copy


def _pattern(message: str) -> str:
    """Return the regular expression a message's English text matches, a ``{name}`` matching anything."""
    parts = re.split(r"\{(\w+)\}", message)
    return "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.*)" for i, part in enumerate(parts))


def _titles(figure: Figure, language: str) -> str:
    """Return the alt text sphinx-gallery would take from ``figure``: its suptitle, then its axes' titles."""
    titles = [figure.get_suptitle()] if figure.get_suptitle() else []
    titles += [
        ax.get_title(loc) for ax in figure.axes for loc in ("left", "center", "right") if ax.get_title(loc)
    ]
    return COMMA[language].join(titles)


def _translator(language: str) -> Callable[[str], str]:
    return gettext.translation(CATALOG, str(LOCALE_DIR), languages=[language]).gettext


# -- The Chinese build: each figure's variant ----------------------------------------------------

_GALLERY_IMAGE = re.compile(r"^/auto_examples/(.+/)?images/sphx_glr_[^/]+\.png$")
_THUMBNAIL = re.compile(r"^/auto_examples/(.+/)?images/thumb/sphx_glr_[^/]+_thumb\.png$")


def use_translated_figures(app: Sphinx, doctree: nodes.document) -> None:
    """In a build in another language, show each example figure's variant in it, with its alt text."""
    language = app.config.language
    if language not in LANGUAGES:
        return
    from sphinx_gallery.directives import imgsgnode

    for node in doctree.findall(imgsgnode):
        uri = node["uri"]
        if not _GALLERY_IMAGE.match(uri):
            continue
        image = variant(uri, language)
        source = Path(app.srcdir) / image.as_posix().lstrip("/")
        if not source.is_file():
            raise ExtensionError(
                f"tcdoc_site: {uri} has no {language} variant ({image.name}). The docs build draws one "
                "only where a font with Chinese characters is installed: install one (Debian: "
                "apt-get install fonts-noto-cjk), remove docs/auto_examples so that the examples run "
                "again, and run `python -m nox -s docs` before this build."
            )
        node["uri"] = image.as_posix()
        if node.get("srcset"):
            node["srcset"] = image.as_posix()  # one resolution: the site sets no image_srcset
        # Escaped for the attribute later, with every gallery figure (_a11y.escape_figure_alts).
        node["alt"] = source.with_suffix(".txt").read_text(encoding="utf-8")
    # The cards' thumbnails (an example with a thumbnail of its own, drawn apart, keeps it).
    for thumbnail in doctree.findall(nodes.image):
        uri = thumbnail["uri"]
        if (
            _THUMBNAIL.match(uri)
            and (Path(app.srcdir) / variant(uri, language).as_posix().lstrip("/")).is_file()
        ):
            thumbnail["uri"] = variant(uri, language).as_posix()


def scale_drawn_thumbnails(app: Sphinx) -> None:
    """Scale the variants of the drawn thumbnails (``_thumbnails/<name>.zh_CN.png``) for the cards.

    sphinx-gallery scales ``_thumbnails/<name>.png`` into the gallery's ``thumb`` folder; this writes
    ``thumb/sphx_glr_<name>_thumb.<language>.png`` beside it, for :func:`use_translated_figures`.
    """
    if app.config.language not in LANGUAGES:
        return
    from sphinx_gallery.utils import scale_image

    width, height = app.config.sphinx_gallery_conf["thumbnail_size"]
    source = Path(app.srcdir)
    for drawn in sorted((source / "_thumbnails").glob(f"*.{app.config.language}.png")):
        name = drawn.name.removesuffix(f".{app.config.language}.png")
        for thumb in source.glob(f"auto_examples/**/images/thumb/sphx_glr_{name}_thumb.png"):
            target = Path(variant(thumb, app.config.language))
            if not target.is_file() or target.stat().st_mtime < drawn.stat().st_mtime:
                scale_image(drawn, target, width, height)
