"""The site's 404 page, each edition's address, and type aliases on older Sphinx (docs/_ext/tcdoc_site).

What the 404 page's script does in a browser, under each host's path, tests/browser/test_hosting.py
checks; these check what the build writes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from sphinx.application import Sphinx
from sphinx.config import Config

from tcdoc_site import _notfound, _type_aliases

PAGE = (
    '<!doctype html>\n<html class="no-js" lang="zh-CN" data-content_root="./">\n  <head>'
    '<meta charset="utf-8">\n<title>Page not found</title><!-- a comment with <script> in it -->'
    '<link rel="stylesheet" href="_static/styles/furo.css"></head>\n'
    '<body><a class="skip-to-content" href="#main">skip</a>'
    '<script src="_static/x.js"></script></body>\n</html>'
)


def app(tmp_path: Path, language: str = "en", prefix: str = "/en/latest/") -> Sphinx:
    config = SimpleNamespace(language=language, tcdoc_url_prefix=prefix)
    return cast(
        "Sphinx", SimpleNamespace(config=config, outdir=tmp_path, builder=SimpleNamespace(format="html"))
    )


@pytest.mark.parametrize(
    ("language", "prefix", "expected"),
    [
        ("en", "/en/latest/", "/en/latest/"),
        ("zh_CN", "/en/latest/", "/en/latest/zh_CN/"),
        ("en", "tcdoc", "/tcdoc/"),
        ("zh_CN", "/tcdoc", "/tcdoc/zh_CN/"),
        ("en", "/", "/"),
        ("zh_CN", "", "/zh_CN/"),
    ],
)
def test_the_root_hint_is_the_editions_path(
    tmp_path: Path, language: str, prefix: str, expected: str
) -> None:
    assert _notfound.root_hint(app(tmp_path, language, prefix)) == expected


def payload(shell: str) -> str:
    found = re.search(
        rf'<script type="application/json" id="{_notfound.SHELL_ID}">(.*?)</script>', shell, re.S
    )
    assert found is not None, "the shell holds no page"
    return str(json.loads(found.group(1)))


def test_the_shell_holds_the_page_and_names_nothing_to_fetch(tmp_path: Path) -> None:
    (tmp_path / "404.html").write_text(PAGE, encoding="utf-8")
    _notfound.wrap_page(app(tmp_path, "zh_CN"), None)
    shell = (tmp_path / "404.html").read_text(encoding="utf-8")
    assert shell.startswith('<!doctype html>\n<html class="no-js" lang="zh-CN" data-content_root="./"><head>')
    outside = re.sub(r"<script\b.*?</script>", "", shell, flags=re.S)
    assert not re.search(r'\b(?:href|src)="(?!/en/latest/zh_CN/index\.html")', outside), outside
    assert '"/en/latest/zh_CN/"' in shell  # the hint, in the script
    page = payload(shell)
    assert page.startswith("\n<title>Page not found</title>")  # the rest of the head, after charset
    assert '<link rel="stylesheet" href="_static/styles/furo.css">' in page
    assert page.rstrip().endswith("</body>\n</html>")
    assert page.index('a[href^="#"]') < page.index("</body>")  # in-page links follow the address
    assert "<!-- a comment with <script> in it -->" in page
    held = shell[shell.index(f'id="{_notfound.SHELL_ID}">') :].split("</script>", 1)[0]
    assert "</" not in held  # nothing that would end the element early
    assert "<!--" not in held  # or keep it from ending
    assert (tmp_path / "_static" / "tcdoc-edition.txt").read_text(encoding="utf-8") == "zh_CN\n"


def test_a_page_already_wrapped_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "404.html").write_text(PAGE, encoding="utf-8")
    _notfound.wrap_page(app(tmp_path), None)
    once = (tmp_path / "404.html").read_text(encoding="utf-8")
    _notfound.wrap_page(app(tmp_path), None)
    assert (tmp_path / "404.html").read_text(encoding="utf-8") == once
    assert payload(once).count("<title>") == 1


def test_a_failed_build_or_another_builder_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "404.html").write_text(PAGE, encoding="utf-8")
    _notfound.wrap_page(app(tmp_path), RuntimeError("the build failed"))
    latex = cast("Sphinx", SimpleNamespace(config=SimpleNamespace(language="en"), outdir=tmp_path))
    cast("Any", latex).builder = SimpleNamespace(format="latex")
    _notfound.wrap_page(latex, None)
    assert (tmp_path / "404.html").read_text(encoding="utf-8") == PAGE
    assert not (tmp_path / "_static").exists()


def test_a_page_without_a_head_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no <html> and <head>"):
        _notfound.shell(app(tmp_path), "<p>not a page</p>")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_each_edition_has_its_own_address(tmp_path: Path, language: str) -> None:
    base = "https://tcdoc.readthedocs.io/en/latest/"
    config = SimpleNamespace(html_baseurl=base, ogp_site_url=base)
    for _ in range(2):  # a second reading of the configuration adds nothing
        _notfound.address_the_edition(app(tmp_path, language), cast("Config", config))
    expected = base if language == "en" else f"{base}{language}/"
    assert config.html_baseurl == expected
    assert config.ogp_site_url == expected


class Domain:
    """The Python domain's resolve_xref, finding only what ``known`` lists, by role."""

    def __init__(self, known: dict[str, str]) -> None:
        self.known = known
        self.asked: list[str] = []

    def resolve_xref(
        self, env: object, fromdoc: str, builder: object, role: str, target: str, *rest: object
    ) -> Any:
        self.asked.append(role)
        return f"{role}:{target}" if self.known.get(role) == target else None


def resolve(domain: Domain, **node: str) -> Any:
    env = SimpleNamespace(get_domain=lambda name: domain)
    app = SimpleNamespace(builder=None)
    return _type_aliases.resolve_type_alias(
        cast("Any", app), cast("Any", env), cast("Any", node), cast("Any", None)
    )


def test_a_class_reference_finds_the_data_or_attribute_of_that_name() -> None:
    assert (
        resolve(Domain({"data": "Check"}), refdomain="py", reftype="class", reftarget="Check") == "data:Check"
    )
    attr = Domain({"attr": "Check"})
    assert resolve(attr, refdomain="py", reftype="class", reftarget="Check") == "attr:Check"
    assert attr.asked == ["data", "attr"]
    assert resolve(Domain({}), refdomain="py", reftype="class", reftarget="Check") is None


@pytest.mark.parametrize(("domain", "role"), [("py", "func"), ("std", "class")])
def test_other_references_are_left_to_sphinx(domain: str, role: str) -> None:
    asked = Domain({"data": "Check"})
    assert resolve(asked, refdomain=domain, reftype=role, reftarget="Check") is None
    assert asked.asked == []
