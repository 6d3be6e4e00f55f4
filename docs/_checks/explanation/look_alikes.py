"""The checks of the claims on ``docs/explanation/look-alikes.md``, by the id of each claim's span."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable

import torch

from _checks._helpers import (
    IN_PLACE_WRITES,
    built_source,
    cells_check,
    data_shares_memory_not_counter,
    each_cell,
    each_measured,
    everyday_names,
    float_returns_float32_x,
    hooks_skip_version_check,
    in_place_through_float,
    like_detach_clone_with_a_warning,
    module_row,
    no_grad_counted_data_not,
    numpy_round_trip_shares,
    optimizer_state_dict_references,
    raises,
    stops_backward,
)
from _checks._helpers import as_tensor_returns_x as _as_tensor_returns_x
from _checks._helpers import copy_copy_new_window as _copy_copy_is_a_new_window
from _checks._helpers import copy_copy_of_non_leaf as _copy_copy_of_non_leaf
from _checks._helpers import detach_in_place_refuses_views as _detach_in_place_refuses_views
from tcdoc import Comparison, Matrix, operations, scenarios, shares_memory
from tcdoc.claims import IN_WORDS, REGISTRY, Claim, Only, expect, measured

__all__ = ["CLAIMS"]

EVERYDAY = everyday_names()


def _some_copy_some_share_some_return_x(matrix: Matrix) -> None:
    rows = [matrix.get(op.name, "leaf_requires_grad") for op in operations()]
    reports = [row.properties for row in rows if row.properties is not None]
    expect(any(not r.shares_storage for r in reports), "none copies")
    expect(any(r.new_object and r.shares_storage for r in reports), "none shares memory")
    expect(any(not r.new_object for r in reports), "none returns x itself")


def _counter_is_the_difference(matrix: Matrix) -> None:
    stops_backward(lambda t: t.detach(), "detach()")
    hooks_skip_version_check(matrix)  # the words say "where no saved-tensor hooks are on"
    no_grad_counted_data_not(matrix)


def _copy_copy_attributes_not_grad(matrix: Matrix) -> None:
    for scenario in ("leaf_requires_grad", "parameter_with_attribute"):
        report = measured(matrix, "copy", scenario)
        expect(report.copies_attributes is True and report.copies_grad is False, f"{scenario}: {report}")


def _tensor_constructors_copy(matrix: Matrix) -> None:
    each_cell(matrix, ("torch_tensor", "new_tensor"), lambda r: not r.shares_storage)
    each_cell(matrix, "as_tensor", lambda r: not r.new_object)
    x = torch.ones(3)
    expect(not shares_memory(x, torch.as_tensor(x, dtype=torch.float64)), "as_tensor did not copy to convert")
    like_detach_clone_with_a_warning(matrix)
    subclass = measured(matrix, "torch_tensor", "subclass").result_type
    expect(subclass == "Tensor", f"torch.tensor of a subclass gave a {subclass}")


def return_x_when_nothing_to_do(matrix: Matrix) -> None:
    """Check that to(), cpu() and contiguous() return x itself where they have nothing to convert."""
    each_cell(matrix, ("to_same_dtype", "cpu"), lambda r: not r.new_object)
    for scenario, report in each_measured(matrix, "contiguous"):
        dense = built_source(scenario).is_contiguous()
        expect(report.new_object != dense, f"contiguous on {scenario}: new object {report.new_object}")


def _change_copies_no_change_is_x(matrix: Matrix) -> None:
    return_x_when_nothing_to_do(matrix)
    each_cell(matrix, "to_float64", lambda r: not r.shares_storage)
    expect(not measured(matrix, "contiguous", "strided_view").shares_storage, "contiguous() shares memory")


_double_copies = cells_check(
    ("double", "to_float64"), lambda r: r.new_object and not r.shares_storage and not r.same_dtype, EVERYDAY
)
_transposes_are_views = cells_check(
    ("T", "permute"), lambda r: r.shares_storage and r.new_bytes == 0, EVERYDAY
)
_cat_and_stack_copy = cells_check(("cat", "stack"), lambda r: r.new_object and not r.shares_storage, EVERYDAY)
tolist_values = cells_check(
    "tolist",
    lambda r: (
        not r.result_is_tensor
        and not r.shares_storage
        and r.result_type in ("list", "float", "int", "complex")
    ),
)
tensor_from_list = cells_check(
    "tensor_from_list",
    lambda r: (
        r.new_object and not r.shares_storage and r.is_leaf and not r.requires_grad and r.grad_fn is None
    ),
    EVERYDAY,
)


def _view_or_fail_reshape_either(matrix: Matrix) -> None:
    for scenario in (s.name for s in scenarios() if built_source(s.name).layout == torch.strided):
        view, reshaped = matrix.get("view", scenario), matrix.get("reshape", scenario)
        expect(view.properties is None or view.properties.shares_storage, f"view on {scenario} copied")
        either = reshaped.properties is not None and reshaped.properties.shares_storage == (
            view.error is None
        )
        expect(either, f"reshape on {scenario}: {reshaped.outcome}, where view gave {view.outcome}")
    # "not a nested one": a nested tensor reports the strided layout too.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the strided nested layout is a prototype
        nested = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)])
    expect(
        nested.layout == torch.strided and nested.is_nested, f"a nested tensor's layout is {nested.layout}"
    )


def _channels_last_view_raises(matrix: Matrix) -> None:
    expect(matrix.get("view", "channels_last").error is not None, "view(-1) did not raise on channels_last")
    report = measured(matrix, "reshape", "channels_last")
    expect(not report.shares_storage and bool(report.new_bytes), f"reshape measured {report}")
    for shape in ((2, 1, 3, 3), (2, 3, 1, 1)):  # one channel, one pixel: row-major contiguous too
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        expect(x.is_contiguous(), f"a channels_last tensor of shape {shape} is not contiguous")
        expect(shares_memory(x, x.view(-1)) and shares_memory(x, x.reshape(-1)), f"{shape}: no view")
    x = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)
    expect(not x.is_contiguous(), "a 3-channel channels_last image is row-major contiguous")
    raises(lambda: x.view(-1))


def _save_load_new_memory(matrix: Matrix) -> None:
    for scenario, report in each_measured(matrix, "save_load"):
        source = built_source(scenario)
        ok = not report.shares_storage and report.result_type == type(source).__name__
        expect(ok and report.requires_grad == source.requires_grad, f"save/load on {scenario}: {report}")
    loaded = measured(matrix, "save_load", "strided_view").new_bytes
    cloned = measured(matrix, "detach_clone", "strided_view").new_bytes
    expect((loaded or 0) > (cloned or 0), f"the loaded slice holds {loaded} bytes, its clone {cloned}")


def _parameter_wrap_copies_nothing(matrix: Matrix) -> None:
    each_cell(matrix, "parameter_wrap", lambda r: r.shares_storage and r.new_bytes == 0 and r.requires_grad)
    expect(not built_source("no_grad").requires_grad, "the no_grad scenario requires grad")
    x = torch.ones(3)
    expect(not shares_memory(x, torch.nn.Parameter(x.detach().clone())), "the parameter shares x's memory")


def _parameter_refuses(matrix: Matrix) -> None:
    raises(lambda: torch.nn.Parameter(torch.arange(3)), "floating point")
    with torch.inference_mode():
        inference = torch.ones(3)
        inside = torch.nn.Parameter(inference)  # inside inference mode the wrap goes through
    expect(inside.requires_grad, "a Parameter made inside inference mode does not require grad")
    raises(lambda: torch.nn.Parameter(inference), "inference tensor outside InferenceMode")
    raises(lambda: torch.nn.Parameter(torch.arange(3), requires_grad=True), "floating point")
    # "with its default requires_grad=True": with requires_grad=False, both are accepted.
    integer = torch.nn.Parameter(torch.arange(3), requires_grad=False)
    kept = torch.nn.Parameter(inference, requires_grad=False)
    ok = integer.dtype == torch.int64 and kept.is_inference() and not torch.is_inference_mode_enabled()
    expect(ok, "nn.Parameter(x, requires_grad=False) changed an integer or an inference x")


def _zero_dim_index_view(matrix: Matrix) -> None:
    x = torch.arange(6.0)
    picked = x[torch.tensor(1)]
    expect(picked._base is x and shares_memory(picked, x), "x[torch.tensor(1)] is not a view of x")
    expect(picked.dim() == 0 and picked.item() == 1.0, f"x[torch.tensor(1)] is {picked}")
    expect(not shares_memory(x[torch.tensor([1])], x), "x[torch.tensor([1])] shares the memory of x")


def _to_copy_float(matrix: Matrix) -> None:
    each_cell(matrix, "to_copy", lambda r: r.new_object and not r.shares_storage)
    x = torch.zeros(3)
    y = x.to(torch.float32, copy=True)
    y += 1
    expect(y is not x and torch.equal(x, torch.zeros(3)), "x.to(torch.float32, copy=True) reached x")


def slice_shares_index_copies(matrix: Matrix) -> None:
    """Check that slicing shares memory and indexing with an index tensor copies, on each everyday x."""
    each_cell(matrix, "slice", lambda r: r.shares_storage and r.new_bytes == 0, EVERYDAY)
    each_cell(matrix, "index", lambda r: not r.shares_storage and bool(r.new_bytes), EVERYDAY)
    x = torch.zeros(2, 3)
    row_view, row_copy = x[0:1], x[torch.tensor([1])]
    row_view += 1
    row_copy += 1
    expect(torch.equal(x[0], torch.ones(3)), "the write through the slice did not reach x")
    expect(torch.equal(x[1], torch.zeros(3)), "the write through the indexed copy reached x")


def _index_assignment_in_place(matrix: Matrix) -> None:
    x = torch.zeros(2, 3)
    before = x._version
    x[torch.tensor([1])] = 5.0
    expect(torch.equal(x[1], torch.full((3,), 5.0)), "assignment through an index tensor did not write x")
    expect(
        torch.equal(x[0], torch.zeros(3)) and x._version > before,
        f"the assignment wrote {x}, version {x._version}",
    )
    leaf = torch.zeros(3, requires_grad=True)
    for name, write in (("add_", lambda t: t.add_(1)), ("assignment", lambda t: t.__setitem__(0, 1.0))):
        raises(functools.partial(write, leaf), "a leaf Variable that requires grad")
        expect(not leaf.detach().any(), f"{name} changed the leaf")


_EXPAND_WRITES: dict[str, Callable[[torch.Tensor], object]] = {
    **{name: write for name, write in IN_PLACE_WRITES.items() if name != "indexed assignment"},
    "assignment into one element": lambda t: t.__setitem__((0, 0), 5.0),
    "assignment into one row": lambda t: t.__setitem__(0, torch.tensor([4.0, 5.0, 6.0])),
    "assignment across the repeated dimension": lambda t: t.__setitem__((slice(None), 0), 5.0),
    "an index tensor": lambda t: t.__setitem__((torch.tensor([0, 1]), 0), 5.0),
    "a mask": lambda t: t.__setitem__(torch.ones(2, 3, dtype=torch.bool), 5.0),
}
_EXPAND_REFUSED = ("add_", "mul_", "copy_", "assignment across the repeated dimension")
_EXPAND_DEPRECATED = ("an index tensor", "a mask")


def _expand_writes(matrix: Matrix) -> None:
    each_cell(matrix, "expand", lambda r: r.overlaps_itself and r.shares_storage, EVERYDAY)
    expect(0 in torch.arange(3.0).expand(2, 3).stride(), "the repeated dimension has a stride")
    for name, write in _EXPAND_WRITES.items():
        x = torch.tensor([1.0, 2.0, 3.0])
        before, wide = x.clone(), x.expand(2, 3)
        if name in _EXPAND_REFUSED:
            raises(functools.partial(write, wide), "more than one element")
            expect(torch.equal(x, before), f"{name} was refused, yet changed x")
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            write(wide)
        expect(not torch.equal(x, before), f"{name} into the expanded tensor did not reach x")
        expect(all(torch.equal(line, x) for line in wide), f"after {name} the repeats differ")
        said = [str(w.message) for w in caught]
        expect(
            name not in _EXPAND_DEPRECATED or any("deprecated" in m for m in said), f"{name} warned {said}"
        )


def _in_place_return_x(matrix: Matrix) -> None:
    """Check that in-place methods return x itself: detach_() cut from the graph, share_memory_() moved."""
    each_cell(matrix, ("detach_", "requires_grad_", "share_memory_"), lambda r: not r.new_object)
    each_cell(matrix, "detach_", lambda r: not r.requires_grad)
    each_cell(
        matrix, "share_memory_", lambda r: r.source_moved and not r.shares_storage and bool(r.new_bytes)
    )
    cut = torch.ones(2, requires_grad=True) * 2
    expect(cut.detach_() is cut and cut.is_leaf and cut.grad_fn is None, "detach_() did not cut x itself")
    x = torch.zeros(2, 3)
    before = x.untyped_storage().data_ptr()
    y = x.share_memory_()  # type: ignore[no-untyped-call]
    again = x.untyped_storage().data_ptr()
    expect(y is x and x.is_shared() and again != before, "x stayed where it was")
    x.share_memory_()  # type: ignore[no-untyped-call]  # "not yet in shared memory": a second call stays
    expect(x.untyped_storage().data_ptr() == again, "share_memory_() moved a tensor already in shared memory")


def _detach_works_on_views(matrix: Matrix) -> None:
    expect(measured(matrix, "detach", "strided_view").shares_storage, "detach() of a view copied")
    x = torch.arange(6.0).reshape(2, 3)
    x = x.detach()
    expect(x.grad_fn is None, "the detached view has history")


def _module_to_in_place_by_default(matrix: Matrix) -> None:
    to = module_row(matrix, "module_to_float64")
    expect(to["new_object"] is False and to["changes_source"] is True, f"model.to(float64) measured {to}")
    expect(to["shares_storage"] != to["tensors"], "every tensor still shares the old memory")
    tensor = measured(matrix, "to_float64", "leaf_requires_grad")
    expect(tensor.new_object and not tensor.shares_storage, f"x.to(torch.float64) measured {tensor}")
    same = module_row(matrix, "module_to_same_dtype")
    expect(same["new_object"] is False and same["changes_source"] is False, f"model.to(float32): {same}")
    future = torch.__future__
    expect(not future.get_overwrite_module_params_on_conversion(), "the build overwrites module parameters")
    expect(not future.get_swap_module_params_on_conversion(), "the build swaps module parameters")
    future.set_overwrite_module_params_on_conversion(True)
    try:  # the words say "with torch's default conversion settings": this one replaces the Parameter
        model = torch.nn.Linear(2, 1)
        weight = model.weight
        model.to(torch.float64)
        expect(model.weight is not weight, "with the overwrite setting the Parameter was kept")
    finally:
        future.set_overwrite_module_params_on_conversion(False)
    model = torch.nn.Linear(2, 1)
    converted = model.to(torch.float64)
    expect(converted is model and model.weight.dtype == torch.float64, "model.to() made a new module")


def keep_a_copy_first(matrix: Matrix) -> None:
    """Check that copy.deepcopy(model) shares no tensor and no memory with the model, and has no .grad."""
    deep = module_row(matrix, "module_deepcopy")
    ok = deep["new_object"] and deep["same_tensors"] == 0 and deep["shares_storage"] == 0
    expect(ok and deep["changes_source"] is False and deep["with_grad"] == 0, f"copy.deepcopy(model): {deep}")


def _state_dict_kinds(matrix: Matrix) -> None:
    plain, kept = module_row(matrix, "state_dict"), module_row(matrix, "state_dict_keep_vars")
    n = plain["tensors"]
    expect(plain["same_tensors"] == 0 and plain["shares_storage"] == n, f"state_dict() measured {plain}")
    expect(plain["requires_grad"] == 0 and plain["with_grad"] == 0, f"state_dict() measured {plain}")
    expect(kept["same_tensors"] == n and kept["shares_storage"] == n, f"keep_vars=True measured {kept}")
    expect(bool(kept["with_grad"]), f"keep_vars=True measured {kept}")


def _is_x(report: Comparison) -> bool:
    return not report.new_object


# Claims that share a check, each under its own name.
_like_detach_clone_but_subclass = _tensor_constructors_copy
_save_load_whole_storage = _save_load_new_memory
_parameter_of_a_clone = _parameter_wrap_copies_nothing
_to_copy_always_copies = _to_copy_float
_view_write_reaches_copy_does_not = slice_shares_index_copies
_share_memory_moves_x = _detach_in_place_is_x = _in_place_return_x
_module_to_example = _module_to_in_place_by_default
_module_deepcopy_starts_without_grad = keep_a_copy_first


CLAIMS = [
    Claim(
        "some-copy-some-share",
        _some_copy_some_share_some_return_x,
        words="Some copy, some share memory, and some return `x` itself",
    ),
    Claim(
        "data-shares-memory-not-counter",
        data_shares_memory_not_counter,
        words="It shares the memory of `x`, like `detach()`, but not the version counter",
    ),
    Claim(
        "counter-is-the-difference",
        _counter_is_the_difference,
        words="Where no saved-tensor hooks are on, the shared version counter is what turns a silent "
        "wrong answer into an error. That is the reason to prefer `detach()`, and "
        "{py:class}`torch.no_grad` (whose in-place changes are counted) for updating parameters "
        "in place",
    ),
    Claim(
        "copy-copy-new-window",
        _copy_copy_is_a_new_window,
        words="On every kind of `x` tcdoc builds, {py:func}`copy.copy` gives a new tensor object over "
        "the same memory, with no shared version counter. It is the same hazard as `x.data`, but "
        "keeping `requires_grad`",
        covers=REGISTRY,
    ),
    Claim(
        "copy-copy-non-leaf",
        _copy_copy_of_non_leaf,
        words="`copy.copy` of a tensor that is not a leaf silently makes a new leaf that keeps "
        "`requires_grad`, where `copy.deepcopy` of the same tensor raises. A backward pass "
        "through it fills its own `.grad` and never reaches the source",
        covers=IN_WORDS,
    ),
    Claim(
        "copy-copy-attributes",
        _copy_copy_attributes_not_grad,
        words="`copy.copy` keeps the Python attributes of `x`, on a plain tensor and on a `Parameter`, "
        "but never copies its `.grad`",
        covers=IN_WORDS,
    ),
    Claim(
        "constructors",
        _tensor_constructors_copy,
        words="{py:func}`torch.tensor` and {py:meth}`~torch.Tensor.new_tensor` always copy, and "
        "{py:func}`torch.as_tensor` copies only when it must",
        covers=REGISTRY,
    ),
    Claim(
        "like-detach-clone",
        _like_detach_clone_but_subclass,
        words="On each kind of `x` in the first table, the first two give the same result as "
        "`x.detach().clone()`. They give a warning that recommends `detach()` and `clone()` (in "
        "an order that [changed in torch 2.7](../reference/changes-between-releases.md#the-two-"
        "changes-readers-meet-most), "
        "[pytorch#144270](https://github.com/pytorch/pytorch/pull/144270)). For a subclass, "
        "`torch.tensor(x)` returns a plain `Tensor` (see [subclasses](special-tensors.md#tensor-"
        "subclasses))",
    ),
    Claim(
        "as-tensor-returns-x",
        _as_tensor_returns_x,
        words="`torch.as_tensor(x)` on a tensor of the right dtype and device returns `x` itself, "
        "history and all",
        covers=REGISTRY,
    ),
    Claim(
        "return-x",
        return_x_when_nothing_to_do,
        words="{py:meth}`~torch.Tensor.to`, {py:meth}`~torch.Tensor.cpu` and "
        "{py:meth}`~torch.Tensor.contiguous` return `x` itself when there is nothing to convert",
    ),
    Claim(
        "change-copies",
        _change_copies_no_change_is_x,
        words="A conversion that changes something (another dtype, a non-contiguous source for "
        "`contiguous()`) makes a copy, and one that changes nothing is not a copy at all",
        covers=REGISTRY,
    ),
    Claim(
        "to-copy-always-copies",
        _to_copy_always_copies,
        words="`x.to(..., copy=True)` is the spelling that always copies",
        covers=REGISTRY,
    ),
    Claim(
        "view-and-reshape",
        _view_or_fail_reshape_either,
        words="On an ordinary strided tensor, not a nested one, {py:meth}`~torch.Tensor.view` always "
        "shares memory and fails when it cannot. {py:meth}`~torch.Tensor.reshape` shares when it "
        "can and copies when it must",
        covers=IN_WORDS,
    ),
    Claim(
        "channels-last-view-raises",
        _channels_last_view_raises,
        words="On a {py:data}`torch.channels_last` tensor, `view(-1)` raises and `reshape(-1)` quietly "
        "copies. Where the tensor is row-major contiguous too, as it is with one channel or one "
        "pixel, both share",
    ),
    Claim(
        "numpy-shares",
        numpy_round_trip_shares,
        words="{py:meth}`~torch.Tensor.numpy` and {py:func}`torch.from_numpy` share memory on the CPU, "
        "so a round trip is not a copy",
        needs=("numpy",),
    ),
    Claim(
        "numpy-escapes",
        numpy_round_trip_shares,
        words="The tensor that comes back reads the bytes of `x` but keeps no version counter in common"
        " with it. So in-place changes through NumPy escape autograd's checks just as `.data` "
        "does",
        needs=("numpy",),
    ),
    Claim(
        "save-load",
        _save_load_new_memory,
        words="A trip through {py:func}`torch.save` and {py:func}`torch.load` gives new memory and "
        "keeps the type and `requires_grad`",
    ),
    Claim(
        "save-load-whole-storage",
        _save_load_whole_storage,
        words="Like deepcopy, it writes a slice's whole storage: the loaded slice holds more bytes than"
        " a clone of it",
    ),
    Claim(
        "parameter-wrap",
        _parameter_wrap_copies_nothing,
        words="Wrapping a tensor in {py:class}`torch.nn.Parameter` copies nothing: the parameter reads "
        "the memory of `x`. It requires gradients even where `x` did not",
    ),
    Claim(
        "wrap-a-clone",
        _parameter_of_a_clone,
        words="To make a parameter from values you want to keep separate, wrap a clone",
    ),
    Claim(
        "parameter-refuses",
        _parameter_refuses,
        words="With its default `requires_grad=True`, it refuses an integer `x`, and, outside inference"
        " mode, an inference tensor",
        covers=IN_WORDS,
    ),
    Claim(
        "zero-dim-index-view",
        _zero_dim_index_view,
        words="A 0-dim integer index tensor is the exception: `x[torch.tensor(0)]` indexes like the "
        "integer `0` and returns a view",
    ),
    Claim(
        "float-returns-x",
        float_returns_float32_x,
        words="Where `x` already is float32, `x.float()` and `x.type(torch.float32)` return `x` itself."
        " On any other dtype they return a new tensor in new memory",
        covers=REGISTRY,
    ),
    Claim(
        "float-changed-original",
        in_place_through_float,
        words="The in-place addition to `y` changed `x`, because `y` is `x`",
    ),
    Claim(
        "double-copies",
        _double_copies,
        words="`x.double()` and `x.to(torch.float64)` of a float32 tensor make a new float64 tensor in "
        "new memory",
    ),
    Claim(
        "ask-for-a-copy",
        _to_copy_float,
        words="To convert and be sure of a copy, say so: `x.to(torch.float32, copy=True)`",
    ),
    Claim(
        "slice-shares-index-copies",
        slice_shares_index_copies,
        words="On each kind of `x` in the first table, basic slicing such as `x[0:1]` returns a view "
        "over the memory of `x`. Advanced indexing with an index tensor of one or more "
        "dimensions, `x[torch.tensor([0])]`, copies the chosen elements into new memory",
    ),
    Claim(
        "view-write-reaches",
        _view_write_reaches_copy_does_not,
        words="The write through the slice reached `x`; the write through the indexed copy did not",
    ),
    Claim(
        "index-assignment-writes",
        _index_assignment_in_place,
        words="Assigning through an index, `x[index] = value`, is an in-place write into `x`, refused "
        "like `add_` on a leaf that requires gradients. Indexing copies when it reads, not when "
        "it assigns",
    ),
    Claim(
        "transposes-are-views",
        _transposes_are_views,
        words="`x.T` and `x.permute(...)` are views too: new strides over the same bytes",
    ),
    Claim(
        "expand-writes",
        _expand_writes,
        words="`x.expand(...)` is a view whose new dimension has stride 0: its elements overlap. "
        "`fill_` and `zero_` succeed, and so do assignments into one element, into one row, or "
        "through an index tensor or a mask. They write into `x`, and so into every repeat. The "
        "assignments through an index tensor or a mask warn that they are deprecated. Torch "
        "refuses `add_`, `mul_` and `copy_` into it, and an assignment through slices across the "
        "repeated dimension (`wide[:, 0] = v`)",
        covers=IN_WORDS,
    ),
    Claim(
        "cat-stack-copy",
        _cat_and_stack_copy,
        words="`torch.cat([x])` and `torch.stack([x])` copy, even when the list holds `x` alone",
    ),
    Claim(
        "in-place-return-x",
        _in_place_return_x,
        words="`x.detach_()`, `x.requires_grad_()` and `x.share_memory_()` change `x` itself and return"
        " it, so the name you bind the result to is one more name for `x`",
    ),
    Claim(
        "share-memory-moves-x",
        _share_memory_moves_x,
        words="`x.share_memory_()` of a tensor not yet in shared memory also moves `x`. It copies the "
        "values into newly allocated shared memory, and none of the memory `x` had is in `y`. So "
        "the table compares `y` with `x` as it was before the call",
    ),
    Claim(
        "detach-in-place-is-x",
        _detach_in_place_is_x,
        words="So, outside inference mode, `y = x.detach_()` is no copy and no detached twin of `x`: it "
        "is `x`, now cut from the graph",
    ),
    Claim(
        "detach-in-place-refuses-views",
        _detach_in_place_refuses_views,
        words="Outside inference mode, `x.detach_()` refuses a view that is not an inference tensor. "
        "`torch.arange(6.0).reshape(2, 3)` is a view of the tensor `arange` made",
        covers=IN_WORDS,
    ),
    Claim(
        "detach-works-on-views",
        _detach_works_on_views,
        words="Write `x = x.detach()` instead: it rebinds the name, and works on views",
    ),
    Claim(
        "module-to-in-place",
        _module_to_in_place_by_default,
        words="With torch's default conversion settings, `model.to(torch.float64)` converts the model "
        "in place and returns the model itself. `x.to(torch.float64)` returns a new tensor and "
        "leaves `x` as it was",
    ),
    Claim(
        "module-to-example",
        _module_to_example,
        words="`converted` is `model`, and the model's own weight is now float64",
    ),
    Claim(
        "keep-a-copy-first",
        keep_a_copy_first,
        words="To keep the float32 model, copy it first: `copy.deepcopy(model)` shares no tensor and no"
        " memory with it",
    ),
    Claim(
        "state-dict-kinds",
        _state_dict_kinds,
        words="`model.state_dict()` gives detached tensors over the model's memory. With "
        "`keep_vars=True` it gives the parameters themselves, `.grad` and all",
        covers=IN_WORDS,
    ),
    Claim(
        "optimizer-state-references",
        optimizer_state_dict_references,
        words="`optimizer.state_dict()` holds the optimizer's own state tensors, so a saved one keeps "
        "changing with every step. `copy.deepcopy(optimizer.state_dict())` is a snapshot",
        covers=IN_WORDS,
    ),
    Claim(
        "module-deepcopy-no-grad",
        _module_deepcopy_starts_without_grad,
        words="A deep copy of the model starts without the `.grad` of its parameters",
    ),
    Claim(
        "tolist",
        tolist_values,
        words="`x.tolist()` returns Python numbers, in nested lists. It is not a tensor, so it shares "
        "no memory with `x`, and the questions only a tensor can answer are n/a",
        covers=REGISTRY,
    ),
    Claim(
        "tensor-from-list",
        tensor_from_list,
        words="`torch.tensor(x.tolist())` builds a new leaf from those numbers, with no history and no "
        "link to `x`",
    ),
    Only(
        "conversions-that-return-x",
        ops=("to_same_dtype", "float", "type_float32", "cpu", "contiguous", "as_tensor"),
        test=_is_x,
        among=(
            "to_same_dtype",
            "to_float64",
            "to_copy",
            "float",
            "double",
            "type_float32",
            "cpu",
            "contiguous",
            "as_tensor",
            "clone",
        ),
        scenarios=("no_grad",),
        words="Of {among}, on {scenarios}, only {ops} return `x` itself",
    ),
]
