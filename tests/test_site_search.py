"""The Chinese search's term table and index-time splitting (tcdoc_site._search_terms, _search).

The query side, in the browser, is tested by tests/browser/test_chinese_search.py.
"""

from __future__ import annotations

import json

import pytest

from tcdoc_site import _search, _search_terms
from tcdoc_site._search_terms import Term, aliases, parse_terms, read_terms, words

# The terms the glossary's table must cover (issue 26), by their Chinese words.
REQUIRED = [
    "张量", "视图", "存储", "叶子张量", "计算图", "自动求导", "梯度", "版本计数器", "原地操作",
    "深拷贝", "浅拷贝", "元数据", "内存格式", "步长", "连续", "推理模式", "切向量",
]  # fmt: skip


def test_the_table_covers_the_terms_and_each_word_names_one_term() -> None:
    terms = read_terms()
    chinese = [term.chinese for term in terms]
    assert not [word for word in REQUIRED if word not in chinese]
    every = [word for term in terms for word in (term.chinese, *term.aliases)]
    assert len(every) == len(set(every)), "a word names two terms"
    assert aliases(terms)["叶子节点"] == "叶子张量"
    assert aliases(terms)["原地修改"] == "原地操作"


@pytest.mark.parametrize(
    "text",
    ["tensor | 张量", "| 张量 |", "tensor |  | 张量", "a | 张量 |\nb | 张量 |", "a | 甲 | 乙\nb | 乙 |"],
)
def test_a_malformed_table_is_refused_with_its_line(text: str) -> None:
    with pytest.raises(ValueError, match=r"terms\.txt:\d+"):
        parse_terms(text)


def test_comments_and_blank_lines_are_skipped() -> None:
    text = "# a comment\n\ntensor | 张量 |  # the word\nview | 视图 | 视图张量, \n"
    assert parse_terms(text) == [Term("tensor", "张量"), Term("view", "视图", ("视图张量",))]
    assert words(parse_terms(text)) == ["张量", "视图", "视图张量"]


def test_the_index_keeps_terms_whole_and_adds_the_term_of_an_alias() -> None:
    search = _search.SearchChineseTerms({})
    split = search.split("叶子节点和原地修改都会影响版本计数器与切向量")
    for word in ("叶子节点", "叶子张量", "原地修改", "原地操作", "版本计数器", "切向量"):
        assert word in split, f"{word} not in {split}"
    assert "叶子张量" not in search.split("张量的存储")


def test_the_splitter_code_holds_the_table() -> None:
    terms = read_terms()
    code = _search.splitter_code(terms)
    assert "/*TCDOC_SEARCH_DATA*/" not in code
    data = json.loads(code.split("const TCDOC_SEARCH = ", 1)[1].split(";\n", 1)[0])
    assert data["aliases"] == aliases(terms)
    assert data["longest"] >= max(len(word) for word in words(terms))
    assert "区别" in data["questionWords"]
    assert "var splitQuery" in code


def test_the_table_file_is_where_the_glossary_reads_it() -> None:
    assert _search_terms.TERMS_FILE.is_file()
    assert _search_terms.TERMS_FILE.parent.name == "zh_CN"
