"""tcdoc._compat: every path it has for the torch releases it supports, run on the torch installed.

torch's private ``_unsafe_set_version_counter`` takes one tensor and one int a call in torch 2.4
to 2.6, and two sequences from torch 2.7 on. Each form is stood in for here by a function of
that form built on the installed torch's own, so both paths run whichever torch this is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest
import torch
from torch.autograd.graph import increment_version

import tcdoc
from tcdoc import _compat
from tcdoc._compat import set_version_counters

# The installed torch's own setter of many counters, found before any test stands in for it.
_REAL = _compat._version_setter()


def one_at_a_time(tensor: object, version: object) -> None:
    """torch 2.4 to 2.6's form: pybind11 refuses anything but a tensor and an int."""
    if not isinstance(tensor, torch.Tensor) or not isinstance(version, int):
        raise TypeError("_unsafe_set_version_counter(): incompatible function arguments")
    _REAL((tensor,), (version,))


def all_at_once(tensors: object, versions: object) -> None:
    """torch 2.7 and newer's form: two sequences."""
    if not (isinstance(tensors, Sequence) and isinstance(versions, Sequence)):
        raise TypeError("_unsafe_set_version_counter(): incompatible function arguments")
    _REAL(tensors, versions)


FORMS: dict[str, Callable[[object, object], None]] = {
    "one-at-a-time (torch 2.4 to 2.6)": one_at_a_time,
    "all-at-once (torch 2.7 and newer)": all_at_once,
}


@pytest.fixture(params=list(FORMS), ids=list(FORMS))
def form(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Stand torch's setter in with one form, and let tcdoc find it anew; found again after."""
    monkeypatch.setattr(torch._C._autograd, "_unsafe_set_version_counter", FORMS[request.param])
    _compat._version_setter.cache_clear()
    yield request.param
    _compat._version_setter.cache_clear()  # before monkeypatch puts torch's own back


def test_the_installed_torch_has_one_of_the_forms() -> None:
    x = torch.ones(2)
    increment_version(x)
    increment_version(x)
    set_version_counters([x], [0])
    assert x._version == 0


def test_either_form_sets_every_counter(form: str) -> None:
    a, b = torch.ones(2), torch.zeros(3)
    increment_version(a)
    set_version_counters((a, b), (5, 7))
    assert (a._version, b._version) == (5, 7)


@pytest.mark.parametrize("how", ["detach", "clone"])
def test_compare_measures_and_restores_the_counters_with_either_form(form: str, how: str) -> None:
    x = torch.ones(3, requires_grad=True)
    y = x.detach() if how == "detach" else x.clone()
    y.add_(0)  # a counter that is not at zero, to be put back where it was
    before = (x._version, y._version)
    report = tcdoc.compare(x, y)
    assert report.shares_version_counter is (how == "detach")
    assert (x._version, y._version) == before


def test_the_command_runs_with_either_form(form: str, capsys: pytest.CaptureFixture[str]) -> None:
    from tcdoc.cli import main

    assert main(["explain", "clone"]) == 0
    assert "Autograd history" in capsys.readouterr().out


def test_the_form_is_found_inside_inference_mode_too(form: str) -> None:
    x = torch.ones(3, requires_grad=True)
    y = x.detach()
    with torch.inference_mode():  # the first compare() of the process may be asked here
        report = tcdoc.compare(x, y)
    assert report.shares_version_counter
    assert (x._version, y._version) == (0, 0)


def test_counters_and_versions_must_pair_up() -> None:
    with pytest.raises(ValueError, match="2 tensors but 1 versions"):
        set_version_counters((torch.ones(1), torch.ones(1)), (0,))
