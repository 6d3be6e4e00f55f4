"""The claims that ``examples/plot_05_inplace_after_detach.py`` quotes.

Each gives the words the example says (``quote``), word for word, and the check behind them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

import torch

from _checks._helpers import (
    IN_PLACE_WRITES,
    backward,
    data_change_goes_unnoticed,
    detach_fails_only_where_saved,
    raises,
)
from tcdoc import Matrix, shares_memory
from tcdoc.claims import Claim, expect

__all__ = ["CLAIMS"]


def _exp_saves_output_and_error_says_versions(matrix: Matrix) -> None:
    x = torch.randn(4, requires_grad=True)
    y = x.exp()
    expect(torch.equal(y.grad_fn._saved_result, y), "exp did not save its output")  # type: ignore[union-attr]
    d = y.detach()
    expect(shares_memory(d, y) and (y._version, d._version) == (0, 0), "d and y do not start as said")
    d.zero_()
    expect(
        (y._version, d._version) == (1, 1) and torch.equal(y, torch.zeros(4)), "the change did not reach y"
    )
    error = raises(lambda: backward(y.sum()))
    expect("is at version 1; expected version 0" in str(error), f"the error says: {error}")
    hooks: dict[str, Callable[[], AbstractContextManager[object]]] = {
        "save_on_cpu": torch.autograd.graph.save_on_cpu,
        "saved_tensors_hooks": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
    }
    for name, make_hooks in hooks.items():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with make_hooks():
            y = x.exp()
        y.detach().zero_()
        backward(y.sum())  # raises, and fails the check, if the hooks kept the version check
        expect(
            x.grad is not None and torch.equal(x.grad, torch.zeros(2)), f"{name}: the gradient is {x.grad}"
        )
    # Every in-place write through d is noticed, inside inference mode too; one through NumPy or
    # the storage moves no counter, and the gradient is silently wrong.
    for name, write in IN_PLACE_WRITES.items():
        for mode in (nullcontext, torch.inference_mode):
            x = torch.tensor([1.0, 2.0], requires_grad=True)
            y = x.exp()
            with mode():
                write(y.detach())
            error = raises(functools.partial(backward, y.sum()))
            expect("modified by an inplace operation" in str(error), f"{name} under {mode.__name__}: {error}")
    around: dict[str, Callable[[torch.Tensor], object]] = {
        "d.numpy()": lambda d: d.numpy().__setitem__(slice(None), 0),
        "d.untyped_storage()": lambda d: d.untyped_storage().fill_(0),  # type: ignore[attr-defined]
        "torch.from_dlpack(d)": lambda d: torch.utils.dlpack.from_dlpack(d).zero_(),
        "d.data": lambda d: d.data.zero_(),
    }
    for name, write in around.items():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        d = y.detach()
        write(d)
        expect(d._version == 0, f"a write through {name} moved the counter to {d._version}")
        backward(y.sum())  # raises, and fails the check, if the write was noticed
        expect(
            x.grad is not None and torch.equal(x.grad, torch.zeros(2)), f"{name}: the gradient is {x.grad}"
        )
    # Hooks registered on the saved tensor itself, after the fact, skip the check as well.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)  # type: ignore[union-attr]
    y.detach().zero_()
    backward(y.sum())
    expect(x.grad is not None and torch.equal(x.grad, torch.zeros(2)), f"registered hooks: {x.grad}")
    # Hooks the change does not reach give the right gradient: one that copies on a change ...
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        y = x.exp()
        y.detach().zero_()
        backward(y.sum())
    expect(x.grad is not None and torch.allclose(x.grad, torch.tensor([1.0, 2.0]).exp()), f"{x.grad}")
    # ... and one that packs a copy. Both skip the check, but their gradients are right: the words say
    # "whenever the change reaches what the hook kept", not "always".
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
        y = x.exp()
    y.detach().zero_()
    backward(y.sum())
    expect(
        x.grad is not None and torch.allclose(x.grad, torch.tensor([1.0, 2.0]).exp()),
        f"a hook that copies gave the gradient {x.grad}",
    )


def _only_saved_tensors_are_checked(matrix: Matrix) -> None:
    detach_fails_only_where_saved(matrix)
    x = torch.randn(4, requires_grad=True)
    z = x + 1
    z.detach().zero_()
    backward(z.sum())
    expect(x.grad is not None and torch.equal(x.grad, torch.ones(4)), f"the gradient is {x.grad}")


CLAIMS = [
    Claim(
        "refuses",
        _exp_saves_output_and_error_says_versions,
        quote="PyTorch notices a change that a torch operation makes through the detached tensor, thanks to "
        "a version counter the two tensors share, and refuses to compute wrong gradients: `backward()` "
        "raises, unless saved-tensor hooks packed the tensor autograd saved. Then there is no check, and "
        "the gradients are silently wrong whenever the change reaches what the hook kept, as it does with "
        "`torch.autograd.graph.save_on_cpu()` and a tensor already on the CPU. A write through another "
        "alias of the memory, such as `d.numpy()`, `d.untyped_storage()`, `torch.from_dlpack(d)` or "
        "`d.data`, moves no counter and goes unnoticed too",
        scope="stated: the in-place writes through the detached tensor, in and out of inference mode, "
        "hooks that keep or copy, registered on the saved tensor too, writes through four other aliases",
    ),
    Claim(
        "share-both",
        _exp_saves_output_and_error_says_versions,
        quote="`d` and `y` share their memory and their version counter",
    ),
    Claim(
        "change-moves-counter",
        _exp_saves_output_and_error_says_versions,
        quote="An in-place change through `d` writes into `y` and moves the shared counter",
    ),
    Claim(
        "raises",
        _exp_saves_output_and_error_says_versions,
        quote="At `backward()` autograd compares the counter of the saved `y` with the value it recorded "
        "when "
        "saving it (0), finds 1, and raises instead of using the zeros",
    ),
    Claim(
        "only-saved",
        _only_saved_tensors_are_checked,
        quote="The check concerns only tensors that autograd saved. `x + 1` saves nothing, since the "
        "derivative "
        "of an addition does not depend on its values, so the same change to its detached twin goes "
        "through, and the gradient is still right",
        scope="stated: what autograd saved, against x + 1",
    ),
    Claim(
        "data",
        data_change_goes_unnoticed,
        quote="which shares the memory but not the counter: no error, and wrong gradients",
    ),
]
