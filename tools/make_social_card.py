"""Draw the site's link-preview picture, ``docs/_static/social-card.png``, from the logo.

Link previews (``og:image``) show PNG and JPEG, not SVG, and are wider than tall. This script
reads the shapes of ``docs/_static/logo.svg`` (its rectangles and its straight-line path) and
draws them with matplotlib on a 1200 x 630 card, beside the project's name and question, so
the logo stays the one source of the picture. Run it after changing the logo and commit the
PNG: ``python tools/make_social_card.py`` (needs matplotlib).
"""

from __future__ import annotations

import argparse
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import FancyBboxPatch

ROOT = Path(__file__).resolve().parents[1]
LOGO = ROOT / "docs" / "_static" / "logo.svg"
OUT = ROOT / "docs" / "_static" / "social-card.png"
SVG = "{http://www.w3.org/2000/svg}"
WIDTH, HEIGHT, DPI = 1200, 630, 100
LOGO_PIXELS = 420  # the logo's side on the card


def draw_logo(ax: Axes, logo: Path) -> None:
    """Draw the rectangles and paths of an SVG logo on ``ax``, one SVG unit per data unit."""
    root = ET.parse(logo).getroot()
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # SVG's y axis points down
    ax.set_axis_off()
    points_per_unit = LOGO_PIXELS / width * 72 / DPI
    for element in root:
        if element.tag == f"{SVG}rect":
            _rect(ax, element.attrib, points_per_unit)
        elif element.tag == f"{SVG}path":
            _path(ax, element.attrib, points_per_unit)


def _rect(ax: Axes, a: dict[str, str], points_per_unit: float) -> None:
    x, y, w, h, r = (float(a.get(k, 0)) for k in ("x", "y", "width", "height", "rx"))
    stroke_width = float(a.get("stroke-width", 0))
    dashes = [float(v) for v in a.get("stroke-dasharray", "").split()]
    patch = FancyBboxPatch(
        (x + r, y + r),
        w - 2 * r,
        h - 2 * r,
        boxstyle=f"round,pad={r},rounding_size={r}",
        facecolor=a.get("fill", "none"),
        edgecolor=a.get("stroke", "none"),
        linewidth=stroke_width * points_per_unit,
        # matplotlib scales a dash pattern by the line width; SVG gives it in its own units.
        linestyle=(0, tuple(d / stroke_width for d in dashes)) if dashes else "solid",
    )
    ax.add_patch(patch)


def _path(ax: Axes, a: dict[str, str], points_per_unit: float) -> None:
    """Draw a path made of moves and horizontal or vertical lines (``M14 17h18``)."""
    x = y = 0.0
    lines: list[tuple[list[float], list[float]]] = []
    for command, numbers in re.findall(r"([MhvHV])([^MhvHV]*)", a["d"]):
        values = [float(v) for v in numbers.replace(",", " ").split()]
        if command == "M":
            x, y = values
            continue
        start = (x, y)
        x = x + values[0] if command == "h" else values[0] if command == "H" else x
        y = y + values[0] if command == "v" else values[0] if command == "V" else y
        lines.append(([start[0], x], [start[1], y]))
    for xs, ys in lines:
        ax.plot(
            xs,
            ys,
            color=a.get("stroke", "black"),
            linewidth=float(a.get("stroke-width", 1)) * points_per_unit,
            solid_capstyle="round" if a.get("stroke-linecap") == "round" else "butt",
        )


def draw_card(out: Path = OUT, logo: Path = LOGO) -> Path:
    """Draw the card into ``out`` and return it."""
    figure = plt.figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor="white")
    side, margin = LOGO_PIXELS / WIDTH, (HEIGHT - LOGO_PIXELS) / 2
    draw_logo(figure.add_axes((80 / WIDTH, margin / HEIGHT, side, LOGO_PIXELS / HEIGHT)), logo)
    figure.text(0.44, 0.56, "tcdoc", fontsize=110, fontweight="bold", color="#1a1a1a")
    figure.text(0.445, 0.34, "clone, detach or deepcopy?", fontsize=30, color="#333333")
    figure.text(0.445, 0.25, "Every answer measured on PyTorch.", fontsize=22, color="#555555")
    figure.savefig(out, dpi=DPI, facecolor="white", metadata={"Software": None})
    plt.close(figure)
    return out


def main(argv: list[str] | None = None) -> int:
    """Draw the card (``--out`` to write it elsewhere)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write the PNG (default: {OUT})")
    print(draw_card(parser.parse_args(argv).out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
