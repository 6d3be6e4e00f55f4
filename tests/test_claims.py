"""The prose claims on the pages that are not rendered from the probe, each checked against this torch.

Every test names the page and quotes (or paraphrases) the sentence it checks. A sentence that
stops being true fails here, so the page is fixed before it is published.
"""

from __future__ import annotations

import copy
import io
import warnings

import pytest
import torch
import torch.autograd.forward_ad as fwAD

import tcdoc


def saved_output_changed_through(reach) -> torch.Tensor | RuntimeError:
    """Zero sigmoid's saved output through ``reach(output)``; return a's gradient or the error.

    The change is made under no_grad, as code that means to change values would make it.
    """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.sigmoid()
    with torch.no_grad():
        reach(b).zero_()
    try:
        b.sum().backward()
    except RuntimeError as error:
        return error
    return a.grad


# -- explanation/four-questions.md -------------------------------------------------------------


def test_four_questions_only_detach_shares_memory_and_counter():
    # "Only x.detach() shares both the memory and the counter; x.data and copy.copy(x) share the
    # memory without the counter, which is why in-place changes through them escape autograd's checks."
    both = [
        op.name
        for op in tcdoc.operations()
        if (row := tcdoc.probe(op, "leaf_requires_grad")).properties is not None
        and row.properties.new_object
        and row.properties.shares_storage
        and row.properties.shares_version_counter
        and row.properties.result_type == "Tensor"
        and not row.properties.requires_grad
    ]
    assert "detach" in both
    assert not isinstance(saved_output_changed_through(lambda b: b.data), RuntimeError)
    assert not isinstance(saved_output_changed_through(copy.copy), RuntimeError)
    assert isinstance(saved_output_changed_through(lambda b: b.detach()), RuntimeError)


def test_four_questions_counter_is_shared_with_detach_not_clone():
    # "One in-place change to d moved the counter of x as well ...; the counter of c did not move."
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d, c = x.detach(), x.clone()
    before = (x._version, c._version)
    d.add_(1)
    assert x._version == before[0] + 1
    assert c._version == before[1]


# -- explanation/clone.md -----------------------------------------------------------------------


def test_clone_prefers_detach_first_same_result():
    # "Both orders end in the same place, a new leaf with its own memory and no history."
    x = torch.ones(3, requires_grad=True)
    for y in (x.detach().clone(), x.clone().detach()):
        assert y.is_leaf
        assert not y.requires_grad
        assert y.grad_fn is None
        assert not tcdoc.shares_memory(x, y)


def test_clone_materialises_expand():
    # "The expanded tensor holds 12 bytes behind its 3000 elements; its clone holds 4 bytes for each one."
    e = torch.ones(3, 1).expand(3, 1000)
    assert e.untyped_storage().nbytes() == 3 * 4
    assert e.clone().untyped_storage().nbytes() == e.numel() * e.element_size()


# -- explanation/detach.md ----------------------------------------------------------------------


def test_detach_allows_metadata_changes_on_the_result():
    # "Torch <version> ... allows such changes" (d.unsqueeze_(0) leaves x's shape alone).
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    d = x.detach()
    d.unsqueeze_(0)
    assert (x.shape, d.shape) == (torch.Size([2, 3]), torch.Size([1, 2, 3]))


def test_detach_in_place_makes_a_leaf_and_refuses_views():
    # "detach_() is the in-place variant, which turns x itself into a leaf."
    # further-reading.md: "the in-place variant's limits on views."
    x = torch.ones(3, requires_grad=True) * 2
    assert not x.is_leaf
    x.detach_()
    assert x.is_leaf
    assert not x.requires_grad
    base = torch.ones(4, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="view"):
        base[1:].detach_()


def test_detach_then_requires_grad_stops_gradients():
    # "The gradient landed in d.grad and x.grad stayed None."
    x = torch.ones(3, requires_grad=True)
    d = x.detach().requires_grad_()
    (d * 5).sum().backward()
    assert d.grad is not None
    assert x.grad is None


def test_detach_drops_forward_tangent_clone_keeps_it():
    # detach.md and which-copy.md: "the clone keeps the tangent and detach() drops it";
    # "x.detach().clone(), whose tangent is gone."
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore", DeprecationWarning)  # raised inside torch, not by this code
        primal = fwAD.make_dual(torch.ones(2), torch.full((2,), 3.0))
        assert fwAD.unpack_dual(primal.clone()).tangent is not None
        assert fwAD.unpack_dual(primal.detach()).tangent is None
        assert fwAD.unpack_dual(primal.detach().clone()).tangent is None


# -- explanation/deepcopy.md --------------------------------------------------------------------


def test_deepcopy_module_with_non_leaf_attribute_and_the_fix():
    # "Keeping self.weight.detach() * 2, or not keeping the tensor at all, makes the module copyable."
    class Scaled(torch.nn.Module):
        def __init__(self, detach: bool) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(torch.ones(3))
            self.detach = detach

        def forward(self, inputs: torch.Tensor) -> torch.Tensor:
            self.scale = (self.weight.detach() if self.detach else self.weight) * 2
            return inputs * self.scale

    broken, fixed = Scaled(detach=False), Scaled(detach=True)
    broken(torch.ones(3))
    fixed(torch.ones(3))
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(broken)
    copy.deepcopy(fixed)


def test_deepcopy_old_weight_norm_fails_parametrization_does_not():
    # "The old torch.nn.utils.weight_norm is the best-known case ... its replacement ... does not."
    # further-reading.md: pull request 103001 is the hint in the error message.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old weight_norm is deprecated
        old = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    old(torch.ones(1, 3))
    with pytest.raises(RuntimeError, match="103001"):
        copy.deepcopy(old)
    new = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    new(torch.ones(1, 3))
    copy.deepcopy(new)


def test_deepcopy_aliasing_within_one_call_only():
    # "Two separate calls ... would give two unrelated copies." which-copy.md: "deepcopy keeps
    # aliasing within a call, and only within it."
    base = torch.arange(4.0)
    view = base[1:]
    one_base, one_view = copy.deepcopy([base, view])
    assert tcdoc.shares_memory(one_base, one_view)
    two_base, two_view = copy.deepcopy(base), copy.deepcopy(view)
    assert not tcdoc.shares_memory(two_base, two_view)
    assert torch.equal(base, torch.arange(4.0))


def test_deepcopy_slice_copies_whole_storage():
    # "Ten elements cost 4000 bytes through deepcopy and 40 through a clone."
    # which-copy.md: "keeping the slice itself keeps all of big alive."
    big = torch.arange(1000.0)
    part = big[:10]
    assert copy.deepcopy(part).untyped_storage().nbytes() == big.untyped_storage().nbytes()
    assert part.clone().untyped_storage().nbytes() == 10 * part.element_size()
    assert part.untyped_storage().nbytes() == big.untyped_storage().nbytes()


def test_deepcopy_module_keeps_ties_and_copies_buffers():
    # "copies every parameter and buffer once, so weights that were tied stay tied in the copy."
    model = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
    model[1].weight = model[0].weight
    model.register_buffer("steps", torch.zeros(1))
    twin = copy.deepcopy(model)
    assert twin[1].weight is twin[0].weight
    assert twin[0].weight is not model[0].weight
    assert not tcdoc.shares_memory(twin.steps, model.steps)


# -- explanation/look-alikes.md -----------------------------------------------------------------


def test_data_gives_silently_wrong_gradient():
    # "No error, and a gradient of zero": sigmoid's derivative s * (1 - s) at the zeroed s.
    grad = saved_output_changed_through(lambda b: b.data)
    assert isinstance(grad, torch.Tensor)
    assert torch.equal(grad, torch.zeros(2))
    right = torch.tensor([1.0, 2.0]).sigmoid()
    assert not torch.allclose(grad, right * (1 - right))


def test_numpy_round_trip_escapes_the_version_counter():
    # "in-place changes through NumPy escape autograd's checks just as .data does."
    grad = saved_output_changed_through(lambda b: torch.from_numpy(b.detach().numpy()))
    assert isinstance(grad, torch.Tensor)


def test_state_dict_holds_detached_references():
    # "state_dict() returns the module's own tensors, detached, not copies of them."
    # which-copy.md: "best = model.state_dict() keeps changing as training continues."
    model = torch.nn.Linear(2, 1)
    saved = model.state_dict()
    assert tcdoc.shares_memory(saved["weight"], model.weight)
    assert not saved["weight"].requires_grad
    best = copy.deepcopy(model.state_dict())
    with torch.no_grad():
        model.weight.add_(1.0)
    assert torch.equal(saved["weight"], model.weight)
    assert not torch.equal(best["weight"], model.weight)


def test_parameter_wrap_of_a_clone_is_separate():
    # "To make a parameter from values you want to keep separate, wrap a clone."
    x = torch.ones(3)
    p = torch.nn.Parameter(x.detach().clone())
    assert not tcdoc.shares_memory(x, p)


# -- howto/which-copy.md ------------------------------------------------------------------------


def test_accumulating_losses_keeps_every_graph():
    # "total_loss += loss keeps one graph alive per iteration"; loss.item() keeps none.
    w = torch.ones(3, requires_grad=True)
    total = torch.zeros(())
    number = 0.0
    for step in range(4):
        loss = (w * step).sum()
        total += loss
        number += loss.item()
    assert isinstance(number, float)
    sums, stack, seen = 0, [total.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        sums += type(node).__name__ == "SumBackward0"
        stack.extend(child for child, _ in node.next_functions)
    assert sums == 4


def test_requires_grad_false_on_a_non_leaf_raises():
    # "setting requires_grad=False on a tensor in the middle of the graph raises an error."
    y = torch.ones(3, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="leaf variables"):
        y.requires_grad = False


def test_no_grad_in_place_is_counted_data_is_not():
    # "the change is made in place on the real tensor, and the version counter still records it."
    # "p.data.copy_(...) skips the version counter."
    p = torch.nn.Parameter(torch.ones(3))
    before = p._version
    with torch.no_grad():
        p.copy_(torch.zeros(3))
    assert p._version == before + 1
    p.data.copy_(torch.ones(3))
    assert p._version == before + 1


def test_torch_tensor_warns_and_copies():
    # "torch.tensor(x) gives the same result with a UserWarning recommending exactly this."
    x = torch.ones(3, requires_grad=True)
    with pytest.warns(UserWarning, match=r"detach\(\)\.clone\(\)"):
        y = torch.tensor(x)
    assert not y.requires_grad
    assert not tcdoc.shares_memory(x, y)


def test_detach_alone_follows_later_updates():
    # "x.detach() alone follows every later in-place update of x."
    x = torch.zeros(3)
    alias, snapshot = x.detach(), x.detach().clone()
    x.add_(1)
    assert torch.equal(alias, x)
    assert not torch.equal(snapshot, x)


def test_numpy_refuses_grad_and_shares_memory():
    # "numpy() refuses tensors that require gradients, and on the CPU the array shares the memory."
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="requires grad"):
        x.numpy()
    t = torch.zeros(3)
    array = t.numpy()
    array[0] = 5.0
    assert t[0].item() == 5.0


def test_from_numpy_shares_tensor_copies_as_tensor_depends_on_dtype():
    # "torch.from_numpy to share memory, or torch.tensor(array) for a copy"; "torch.as_tensor, which
    # shares or copies depending on the array's dtype."
    np = pytest.importorskip("numpy")
    array = np.zeros(3, dtype=np.float32)
    shared, copied = torch.from_numpy(array), torch.tensor(array)
    same_dtype, other_dtype = torch.as_tensor(array), torch.as_tensor(array, dtype=torch.float64)
    array[0] = 7.0
    assert shared[0].item() == 7.0
    assert copied[0].item() == 0.0
    assert same_dtype[0].item() == 7.0
    assert other_dtype[0].item() == 0.0


def test_clone_always_copies_and_keeps_layout():
    # "clone() always copies and keeps the layout unless told otherwise."
    x = torch.zeros(2, 3, 4, 4).to(memory_format=torch.channels_last)
    y = x.clone()
    assert not tcdoc.shares_memory(x, y)
    assert y.is_contiguous(memory_format=torch.channels_last)
    assert x.clone(memory_format=torch.contiguous_format).is_contiguous()


def test_save_keeps_views_saved_together():
    # "saving keeps view relationships between the tensors saved together, and so writes the whole
    # storage behind a slice."
    base = torch.arange(10_000.0)
    buffer = io.BytesIO()
    torch.save([base, base[:2]], buffer)
    buffer.seek(0)
    loaded_base, loaded_view = torch.load(buffer)
    assert tcdoc.shares_memory(loaded_base, loaded_view)
    small, whole = io.BytesIO(), io.BytesIO()
    torch.save(base[:2].clone(), small)
    torch.save(base[:2], whole)
    assert len(whole.getvalue()) - len(small.getvalue()) >= 9_000 * base.element_size()


def test_to_returns_self_or_copies_and_keeps_graph():
    # "to() returns x itself when nothing changes, and a new tensor, still in the graph, when it moves";
    # "add copy=True when you need a copy even if x is already there."
    x = torch.ones(3, requires_grad=True)
    assert x.to(x.device) is x
    assert x.cpu() is x
    forced = x.to(x.device, copy=True)
    assert forced is not x
    assert forced.grad_fn is not None
    assert not tcdoc.shares_memory(x, forced)


def test_share_memory_is_seen_by_another_process():
    # "a tensor in shared memory is passed to other processes without a copy, and their writes are
    # visible to every process."
    mp = torch.multiprocessing.get_context("spawn")
    x = torch.zeros(3).share_memory_()
    assert x.is_shared()
    worker = mp.Process(target=_fill_with_ones, args=(x,))
    worker.start()
    worker.join(timeout=120)
    assert worker.exitcode == 0
    assert torch.equal(x, torch.ones(3))


def _fill_with_ones(tensor: torch.Tensor) -> None:
    tensor.fill_(1.0)


@pytest.mark.parametrize("size", [10, 100_000])
def test_view_costs_no_memory_copy_costs_its_bytes(size):
    # "a view costs nothing whatever the size, and every copy costs ... memory in proportion to the
    # bytes it writes." (Time is measured by the cost example, not asserted here.)
    x = torch.ones(size)
    assert tcdoc.compare(x, x.detach()).new_bytes == 0
    assert tcdoc.compare(x, x.detach().clone()).new_bytes == size * x.element_size()
