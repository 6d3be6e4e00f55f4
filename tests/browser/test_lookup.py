"""The lookup page (docs/reference/lookup.md), read in Chromium as a reader uses it, in both editions.

- operations typed as readers write them land on the card of the operation they mean, and the card
  shows what the build's data (``_static/tcdoc-lookup-data.js``, the build's matrix) says of that cell;
- the question lives in the address: a link opens its card, from a server or from ``file://``;
- a spelling that names nothing lists the nearest operations;
- without JavaScript the page points to the tables;
- axe-core finds no violation in the light and the dark theme, and on a 375-pixel phone the page
  fits the screen.

Self-contained: it uses only the fixtures ``browser``, ``site`` and ``html`` of conftest.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

PAGE = "reference/lookup.html"
DATA = "_static/tcdoc-lookup-data.js"
EDITIONS = {"en": "", "zh_CN": "zh_CN/"}
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
PHONE = {"width": 375, "height": 812}

# What readers type, the kind of x and the grad mode they choose, and the operation they mean.
LOOKUPS = [
    ("x.float()", "leaf_requires_grad", "enabled", "float"),
    ("float", "integer", "enabled", "float"),
    ("torch.tensor(x)", "leaf_requires_grad", "enabled", "torch_tensor"),
    ("torch.tensor(x)", "no_grad", "no_grad", "torch_tensor"),
    ("x[idx]", "leaf_requires_grad", "enabled", "index"),
    ("x[idx]", "strided_view", "enabled", "index"),
    ("x.data", "leaf_requires_grad", "enabled", "data"),
    ("x.data", "inference", "inference_mode", "data"),
    ("deepcopy", "leaf_requires_grad", "no_grad", "deepcopy"),
    ("deepcopy", "non_leaf", "enabled", "deepcopy"),
    ("copy.deepcopy(x)", "parameter", "enabled", "deepcopy"),
    ("copy.deepcopy(x)", "leaf_requires_grad", "inference_mode", "deepcopy"),
    ("x.detach().clone()", "leaf_requires_grad", "enabled", "detach_clone"),
    ("x.detach().clone()", "conj", "enabled", "detach_clone"),
    (".clone()", "non_leaf", "enabled", "clone"),
    ("clone", "leaf_requires_grad", "inference_mode", "clone"),
    ("x.clone()", "hooked", "enabled", "clone"),
    ("torch.clone(x)", "leaf_requires_grad", "enabled", "torch_clone"),
    ("x.detach()", "non_leaf", "no_grad", "detach"),
    ("detach", "zero_dim", "enabled", "detach"),
    ("x.clone().detach()", "leaf_requires_grad", "enabled", "clone_detach"),
    ("copy.copy(x)", "leaf_requires_grad", "enabled", "copy"),
    ("x.view(-1)", "strided_view", "enabled", "view"),
    ("x.reshape(-1)", "strided_view", "enabled", "reshape"),
    ("x.reshape(2, 3)", "leaf_requires_grad", "enabled", "reshape"),
    ("x[0:1]", "leaf_requires_grad", "enabled", "slice"),
    ("x.T", "leaf_requires_grad", "enabled", "T"),
    ("x.contiguous()", "channels_last", "enabled", "contiguous"),
    ("x.to(torch.float64)", "leaf_requires_grad", "enabled", "to_float64"),
    ("x.double()", "leaf_requires_grad", "no_grad", "double"),
    ("x.tolist()", "leaf_requires_grad", "enabled", "tolist"),
    ("torch.as_tensor(x)", "leaf_requires_grad", "enabled", "as_tensor"),
    ("nn.Parameter(x)", "no_grad", "enabled", "parameter_wrap"),
    ("x + 0", "leaf_requires_grad", "enabled", "add_zero"),
    ("x.detach_()", "non_leaf", "enabled", "detach_"),
    ("torch.save", "leaf_requires_grad", "enabled", "save_load"),
    ("x.expand(2, *x.shape)", "leaf_requires_grad", "enabled", "expand"),
    ("torch.cat([x])", "leaf_requires_grad", "enabled", "cat"),
]


def read_data(html: Path, edition: str) -> dict[str, Any]:
    """Read the lookup data that the build wrote for an edition: the script's JSON."""
    path = html / EDITIONS[edition] / DATA
    if not path.is_file():
        pytest.skip(f"no {edition} edition with a lookup page at {path.parent.parent}")
    text = path.read_text(encoding="utf-8").strip()
    prefix, suffix = "window.TCDOC_LOOKUP=", ";"
    assert text.startswith(prefix), f"{path}: not a script that sets TCDOC_LOOKUP"
    assert text.endswith(suffix), f"{path}: not a script that sets TCDOC_LOOKUP"
    data: dict[str, Any] = json.loads(text[len(prefix) : -len(suffix)])
    return data


def expected_card(data: dict[str, Any], op: str, x: str, mode: str) -> dict[str, list[str]]:
    """What the card must show for one cell, read from the build's data."""
    strings = data["s"]
    index = {name: i for i, name in enumerate(entry[0] for entry in data["o"])}
    scenarios = [entry[0] for entry in data["x"]]
    modes = [entry[0] for entry in data["m"]]
    card = data["c"][data["r"][index[op]][modes.index(mode)][scenarios.index(x)]]
    answers = [strings[i] for i in card[:4] if i != -1]
    writes = [strings[i] for i in card[4][1::2]]
    messages = [strings[i] for i in card[5]] + ([strings[card[6]]] if card[6] != -1 else [])
    return {"answers": [*answers, *writes], "messages": messages}


@pytest.fixture
def tab(browser: Browser) -> Iterator[Page]:
    """A desktop tab that fails the test on a console error or an uncaught exception."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    problems: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page
    context.close()
    assert not problems, "\n".join(problems)


def look_up(page: Page, text: str, x: str, mode: str) -> None:
    """Type ``text`` as a reader would, choose x and the mode, and press Enter."""
    page.select_option("#tcdoc-lookup-x", x)
    page.select_option("#tcdoc-lookup-mode", mode)
    page.fill("#tcdoc-lookup-op", "")
    page.type("#tcdoc-lookup-op", text)
    page.press("#tcdoc-lookup-op", "Enter")


def shown(page: Page) -> dict[str, Any]:
    """What the card shows: its cell, its answers (each <dd>) and its verbatim messages."""
    card = page.locator("#tcdoc-lookup-card")
    return {
        "cell": (
            card.get_attribute("data-op"),
            card.get_attribute("data-x"),
            card.get_attribute("data-mode"),
        ),
        "answers": card.locator("dd").all_inner_texts(),
        "messages": card.locator("pre.tcdoc-lookup-message").all_inner_texts(),
    }


@pytest.mark.parametrize("edition", EDITIONS)
def test_typed_lookups_land_on_the_right_card(tab: Page, site: str, html: Path, edition: str) -> None:
    data = read_data(html, edition)
    tab.goto(urljoin(site, EDITIONS[edition] + PAGE))
    wrong = []
    for text, x, mode, op in LOOKUPS:
        look_up(tab, text, x, mode)
        card = shown(tab)
        expected = expected_card(data, op, x, mode)
        if card["cell"] != (op, x, mode):
            wrong.append(f"{text!r} on {x}, {mode}: the card of {card['cell']}, not of {op}")
        elif card["answers"] != expected["answers"] or card["messages"] != expected["messages"]:
            wrong.append(f"{text!r} on {x}, {mode}: shows {card}, the data says {expected}")
        elif f"op={op}" not in tab.url:
            wrong.append(f"{text!r}: the address {tab.url} does not hold the question")
    assert len(LOOKUPS) >= 30
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_link_opens_its_card(tab: Page, site: str, html: Path, edition: str) -> None:
    data = read_data(html, edition)
    query = f"?op={quote('copy.deepcopy(x)')}&x=non_leaf&mode=no_grad"
    for url in (
        urljoin(site, EDITIONS[edition] + PAGE) + query,
        (html / EDITIONS[edition] / PAGE).as_uri() + query,
    ):
        tab.goto(url)
        card = shown(tab)
        assert card["cell"] == ("deepcopy", "non_leaf", "no_grad"), url
        assert card["messages"] == expected_card(data, "deepcopy", "non_leaf", "no_grad")["messages"], url
        assert tab.input_value("#tcdoc-lookup-op") == "copy.deepcopy(x)"
        # Its links lead to the row of the table, which exists in the family page.
        row = tab.locator("#tcdoc-lookup-card p.tcdoc-lookup-links a").first.get_attribute("href")
        assert row is not None
        assert "#matrix-deepcopy" in row
        family = html / EDITIONS[edition] / "reference" / row.split("#")[0]
        assert 'id="matrix-deepcopy"' in family.read_text(encoding="utf-8")


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_unknown_spelling_lists_the_nearest(tab: Page, site: str, html: Path, edition: str) -> None:
    read_data(html, edition)
    tab.goto(urljoin(site, EDITIONS[edition] + PAGE))
    look_up(tab, "x.closne()", "leaf_requires_grad", "enabled")
    suggestions = tab.locator("#tcdoc-lookup-card button.tcdoc-lookup-suggestion")
    assert 1 <= suggestions.count() <= 3
    assert "x.clone()" in suggestions.all_inner_texts()
    suggestions.filter(has_text="x.clone()").first.click()
    assert shown(tab)["cell"] == ("clone", "leaf_requires_grad", "enabled")


def test_without_javascript_the_page_points_to_the_tables(browser: Browser, site: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(urljoin(site, PAGE))
    assert not page.locator("#tcdoc-lookup").is_visible()
    link = page.locator("noscript a, main a[href$='matrix.html']").first
    assert link.is_visible()
    context.close()


def test_the_landing_page_and_the_matrix_link_to_it(tab: Page, site: str) -> None:
    for start in ("index.html", "reference/matrix.html"):
        tab.goto(urljoin(site, start))
        link = tab.locator("article a[href$='lookup.html']").first
        link.click()
        assert tab.url.endswith(PAGE), start


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, PHONE["width"]])
def test_the_page_passes_axe(
    browser: Browser, site: str, html: Path, edition: str, theme: str, width: int
) -> None:
    read_data(html, edition)
    phone = width == PHONE["width"]
    context = browser.new_context(
        viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone, color_scheme="light"
    )
    context.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    page = context.new_page()
    page.goto(urljoin(site, EDITIONS[edition] + PAGE) + "?op=deepcopy&x=non_leaf&mode=enabled")
    assert page.evaluate("document.body.dataset.theme") == theme
    options = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}
    found = [f"{v['id']}: {v['help']}" for v in Axe().run(page, options=options).response["violations"]]
    look_up(page, "x.float()", "leaf_requires_grad", "enabled")
    found += [f"{v['id']}: {v['help']}" for v in Axe().run(page, options=options).response["violations"]]
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    context.close()
    assert not found, "\n".join(found)
    assert overflow <= 0, f"the page is {overflow} px wider than the {width} px screen"


def test_the_data_is_small(html: Path) -> None:
    sizes = {
        edition: (html / prefix / DATA).stat().st_size
        for edition, prefix in EDITIONS.items()
        if (html / prefix / DATA).is_file()
    }
    for edition, size in sizes.items():
        print(f"{edition}: {DATA} weighs {size / 1000:.1f} kB")
    assert sizes
    assert max(sizes.values()) <= 150_000
