"""The lookup page's matching of what readers type to operations (docs/_ext/tcdoc_site/_lookup.py)."""

from __future__ import annotations

import pytest

import tcdoc
from tcdoc_site._lookup import ALIASES, keys, resolve

TABLE = keys((op.name, op.code) for op in tcdoc.operations(include_unavailable=True))

# How readers write an operation, with the operation they mean.
SPELLINGS = {
    "x.float()": "float",
    "float": "float",
    "FLOAT": "float",
    "torch.tensor(x)": "torch_tensor",
    "torch.tensor( x )": "torch_tensor",
    "x[idx]": "index",
    "x.data": "data",
    "deepcopy": "deepcopy",
    "copy.deepcopy(x)": "deepcopy",
    "copy.deepcopy": "deepcopy",
    "x.detach().clone()": "detach_clone",
    ".clone()": "clone",
    "clone": "clone",
    "torch.clone(x)": "torch_clone",
    "x.view(2, 3)": "view",
    "x.clone(memory_format=torch.channels_last)": "clone_channels_last",
    "x.to\uff08torch.float64\uff09": "to_float64",  # full-width brackets, as a Chinese keyboard types them
    "x.to('cuda')": "to_cuda",
    "x.T": "T",
}


@pytest.mark.parametrize(("text", "expected"), SPELLINGS.items())
def test_a_spelling_finds_its_operation(text: str, expected: str) -> None:
    assert resolve(text, TABLE) == expected


@pytest.mark.parametrize("op", tcdoc.operations(include_unavailable=True), ids=lambda op: op.name)
def test_every_name_and_code_finds_its_own_operation(op: tcdoc.Operation) -> None:
    assert resolve(op.name, TABLE) == op.name
    assert resolve(op.code, TABLE) == op.name


def test_every_alias_names_an_operation() -> None:
    names = {op.name for op in tcdoc.operations(include_unavailable=True)}
    assert set(ALIASES.values()) <= names


@pytest.mark.parametrize("text", ["", "x.frobnicate()", "closne"])
def test_an_unknown_spelling_finds_nothing(text: str) -> None:
    assert resolve(text, TABLE) is None
