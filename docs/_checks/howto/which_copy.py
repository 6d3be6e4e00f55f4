"""The checks of the claims on ``docs/howto/which-copy.md``, by the id of each claim's span."""

from __future__ import annotations

import copy

import torch

from _checks._helpers import (
    IN_PLACE_WRITES,
    backward,
    deepcopy_refuses_non_leaf,
    detach_copies_nothing,
    detach_fails_only_where_saved,
    each_measured,
    float_returns_float32_x,
    in_place_through_float,
    module_computed_detached_stops_training,
    module_with_non_leaf,
    numpy_round_trip_shares,
    optimizer_state_dict_references,
    parameter_deepcopy_drops,
    raises,
    state_dict_references,
)
from _checks._helpers import no_grad_counted_data_not as _no_grad_counted_data_not
from _checks._helpers import slice_storage as _clone_holds_only_the_slice
from _checks._helpers import tied_module as _deepcopy_separate_with_ties
from tcdoc import Matrix, graph_memory, shares_memory, start_methods
from tcdoc.claims import IN_WORDS, Claim, expect, measured

__all__ = ["CLAIMS"]

REFUSAL = "Only Tensors created explicitly by the user"


def _may_share(matrix: Matrix) -> None:
    for op in ("to_same_dtype", "cpu", "contiguous", "reshape", "numpy_roundtrip"):
        expect(any(report.shares_storage for _, report in each_measured(matrix, op)), f"{op} never shares")


def _loss_holds_its_graph(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    loss = (w * torch.arange(3.0)).exp().sum()
    expect(graph_memory(loss).saved_bytes > 0, "the loss holds no saved tensors")
    expect(graph_memory(loss.detach()).saved_bytes == 0, "the detached loss holds a graph")
    backward(loss)
    expect(graph_memory(loss).saved_bytes == 0, "backward() left the saved tensors alive")
    kept = (w * torch.arange(3.0)).exp().sum()
    kept.backward(retain_graph=True)  # type: ignore[no-untyped-call]
    expect(graph_memory(kept).saved_bytes > 0, "backward(retain_graph=True) freed the saved tensors")


def _accumulating_keeps_every_graph(matrix: Matrix) -> None:
    w = torch.ones(3, requires_grad=True)
    total = torch.zeros(())
    held = []
    for step in range(4):  # no backward(): an evaluation loop with autograd recording
        total = total + (w * step).exp().sum()
        held.append(graph_memory(total).saved_bytes)
    expect(held == sorted(held) and held[-1] > held[0], f"the saved bytes went {held}")
    total = torch.zeros(())
    saved, nodes = [], []
    for step in range(4):  # a training loop: backward() on every iteration's loss
        loss = (w * step).exp().sum()
        total = total + loss
        backward(loss)
        saved.append(graph_memory(total).saved_bytes)
        nodes.append(graph_memory(total).nodes)
    expect(not any(saved), f"with backward() the accumulated graphs still hold saved bytes {saved}")
    expect(nodes == sorted(nodes) and nodes[-1] > nodes[0], f"with backward() the nodes went {nodes}")


def _deepcopy_optimizer_steps_copies(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    twin = copy.deepcopy(optimizer)
    held = twin.param_groups[0]["params"]
    expect(all(p is not model.weight and p is not model.bias for p in held), "the copy holds the model's")
    expect(not any(shares_memory(p, q) for p in held for q in model.parameters()), "shared memory")
    before = model.weight.detach().clone()
    backward(model(torch.ones(1, 2)).sum())
    twin.step()
    expect(torch.equal(model.weight.detach(), before), "the copied optimizer's step changed the model")
    optimizer.step()
    expect(not torch.equal(model.weight.detach(), before), "the optimizer itself did not step the model")


def _deepcopy_refuses_recorded_in_structures(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 3)
    logits = model(torch.ones(4, 2))
    loss = logits.pow(2).mean()
    recorded = {"loss": loss, "logits": logits}
    raises(lambda: copy.deepcopy(recorded), REFUSAL)
    raises(lambda: copy.deepcopy([loss.detach(), logits]), REFUSAL)
    state = copy.deepcopy(model.state_dict())  # after a forward pass: its tensors are detached
    expect(not shares_memory(state["weight"], model.weight), "the copied state_dict shares the weight")
    for name, tensor in recorded.items():  # tensor by tensor, each detached and cloned, copies
        kept = tensor.detach().clone()
        expect(torch.equal(kept, tensor) and not shares_memory(kept, tensor), f"the copy of {name} is wrong")


def _detached_compute_stops_training(matrix: Matrix) -> None:
    module_computed_detached_stops_training(matrix)
    module_with_non_leaf(matrix)  # and the fix of the line before it trains


def _target_fills_its_grad(matrix: Matrix) -> None:
    model = torch.nn.Linear(2, 1)
    target, frozen = copy.deepcopy(model), copy.deepcopy(model).requires_grad_(False)
    for copied in (target, frozen):
        backward((model(torch.ones(1, 2)) - copied(torch.ones(1, 2))).pow(2).sum() + model.weight.sum())
    expect(target.weight.grad is not None, "the deep-copied target got no .grad")
    expect(frozen.weight.grad is None, "the frozen target got a .grad")


def _detach_copies_nothing_follows_x(matrix: Matrix) -> None:
    detach_copies_nothing(matrix)
    _detach_follows_writes(matrix)
    # The reader's break: x.set_() is in place too, but gives x other memory, which the alias does not see.
    x = torch.zeros(3)
    alias = x.detach()
    x.set_(torch.full((3,), 7.0))  # type: ignore[call-overload]
    expect(torch.equal(alias, torch.zeros(3)) and not shares_memory(alias, x), "the alias followed x.set_()")


def _requires_grad_false_on_non_leaf(matrix: Matrix) -> None:
    y = torch.ones(3, requires_grad=True) * 2
    raises(lambda: setattr(y, "requires_grad", False), "leaf")


def _detached_input_stops_backward(matrix: Matrix) -> None:
    w, head = torch.ones(3, requires_grad=True), torch.ones(3, requires_grad=True)
    backward(((w * 2).detach() * head).sum())
    expect(w.grad is None and head.grad is not None, f"w.grad is {w.grad}")
    expect(measured(matrix, "detach", "non_leaf").new_bytes == 0, "detach copied memory")


def _clone_protects(matrix: Matrix) -> None:
    report = measured(matrix, "clone", "leaf_requires_grad")  # grad mode enabled: autograd records
    ok = not report.shares_storage and not report.shares_version_counter and report.gradient_flows_to_source
    expect(ok, f"clone measured {report}")
    under = matrix.get("clone", "leaf_requires_grad", "no_grad").properties
    expect(under is not None and under.gradient_flows_to_source is False, f"clone under no_grad: {under}")
    inside = matrix.get("clone", "leaf_requires_grad", "inference_mode").properties
    expect(inside is not None and inside.shares_version_counter is None, f"clone in inference mode: {inside}")


def _detach_follows_writes(matrix: Matrix) -> None:
    for name, write in IN_PLACE_WRITES.items():
        x = torch.ones(3)
        alias, snapshot = x.detach(), x.detach().clone()
        write(x)
        expect(torch.equal(alias, x), f"the detached tensor did not follow {name}")
        expect(torch.equal(snapshot, torch.ones(3)), f"the snapshot followed {name}")
    model = torch.nn.Linear(2, 1)
    alias, snapshot = model.weight.detach(), model.weight.detach().clone()
    backward(model(torch.ones(1, 2)).sum())
    torch.optim.SGD(model.parameters(), lr=0.1).step()
    expect(torch.equal(alias, model.weight.detach()), "the detached weight did not follow the step")
    expect(not torch.equal(snapshot, model.weight.detach()), "the snapshot followed the step")


def _module_with_attribute_fails(matrix: Matrix) -> None:
    error = matrix.get("deepcopy", "non_leaf").error
    expect(error is not None and error.message.startswith(REFUSAL), f"deepcopy of a non-leaf: {error}")
    computed_unrecorded = matrix.get("deepcopy", "leaf_from_operation")  # computed under no_grad
    expect(
        computed_unrecorded.error is None, f"deepcopy of an unrecorded result: {computed_unrecorded.outcome}"
    )
    module_with_non_leaf(matrix)
    deepcopy_refuses_non_leaf(matrix)
    as_buffer = torch.nn.Linear(2, 1)  # registering the non-leaf as a buffer does not help
    as_buffer.register_buffer("scale", as_buffer.weight * 2)
    raises(lambda: copy.deepcopy(as_buffer), REFUSAL)


def _clone_detach_drop_parameter(matrix: Matrix) -> None:
    for op in ("clone", "detach", "detach_clone"):
        expect(measured(matrix, op, "parameter").result_type == "Tensor", f"{op} kept the Parameter class")
    report = measured(matrix, "deepcopy", "parameter")
    expect(report.result_type == "Parameter" and report.requires_grad, f"deepcopy measured {report}")


def _numpy_refuses_and_shares(matrix: Matrix) -> None:
    raises(lambda: torch.ones(3, requires_grad=True).numpy())
    # The reader's break: the refusal needs gradients enabled; under no_grad or inference_mode it shares.
    needs_grad = torch.ones(3, requires_grad=True) * 2
    for mode in (torch.no_grad, torch.inference_mode):
        with mode():
            array = needs_grad.numpy()
        expect(shares_memory(needs_grad, torch.from_numpy(array)), f"under {mode.__name__} numpy() copied")
    forced = needs_grad.numpy(force=True)
    expect(shares_memory(needs_grad, torch.from_numpy(forced)), "numpy(force=True) refused or copied")
    t = torch.zeros(3)
    t.numpy()[0] = 5.0
    expect(t[0].item() == 5.0, "the array does not share the tensor's memory")


def _shared_memory_reaches_the_parent(matrix: Matrix) -> None:
    """Check that a worker's write reaches a shared tensor, and an ordinary one except under fork."""
    found = start_methods()
    for method in found.methods:
        for passed in ("argument", "queue"):
            write = found.get(method, "shared", passed)
            expect(write.parent_sees_write, f"{method}, {passed}: the parent did not see the write")
    fork = found.get("fork", "ordinary", "argument")
    expect(not fork.parent_sees_write and not fork.shared_after, f"fork: {fork}")
    for method in ("spawn", "forkserver"):
        write = found.get(method, "ordinary", "argument")
        expect(write.moved and write.shared_after and write.parent_sees_write, f"{method}: {write}")


def _float_is_x_no_copy(matrix: Matrix) -> None:
    float_returns_float32_x(matrix)
    in_place_through_float(matrix)
    report = measured(matrix, "to_same_dtype", "no_grad")
    expect(not report.new_object, f"x.to(x.dtype) measured {report}")


# Claims that share a check, each under its own name.
_snapshot = _detach_follows_writes
_ordinary_tensor_depends_on_start_method = _shared_memory_reaches_the_parent


CLAIMS = [
    Claim(
        "deepcopy-optimizer",
        _deepcopy_optimizer_steps_copies,
        words="`copy.deepcopy(optimizer)` holds deep copies of the parameters, so its `step()` never "
        "changes the model's",
        covers=IN_WORDS,
    ),
    Claim(
        "deepcopy-refuses-recorded-in-structures",
        _deepcopy_refuses_recorded_in_structures,
        words="For another structure of tensors, deepcopy refuses a tensor that autograd recorded, such as a "
        "loss or logits",
        covers=IN_WORDS,
    ),
    Claim(
        "detach-copies-nothing",
        _detach_copies_nothing_follows_x,
        words="It copies nothing, so an in-place write into the memory of `x` (an optimizer's step, "
        "say) shows in it too",
    ),
    Claim("may-share", _may_share, words="each may return memory shared with `x`", needs=("numpy",)),
    Claim(
        "loss-holds-its-graph",
        _loss_holds_its_graph,
        words="`loss` keeps its autograd graph alive, with the tensors that graph saved for the "
        "backward pass. They stay until `backward()` frees them (unless it is given "
        "`retain_graph=True`) or `loss` is dropped",
    ),
    Claim(
        "accumulating-keeps-graphs",
        _accumulating_keeps_every_graph,
        words="appending `loss` itself to a list, or `total_loss += loss`, keeps every iteration's "
        "graph alive. Without `backward()` (an evaluation loop outside `torch.no_grad()`, say), "
        "each graph holds the tensors it saved. With `backward()`, its nodes still pile up",
        covers=IN_WORDS,
    ),
    Claim(
        "state-dict-references",
        state_dict_references,
        words="{py:meth}`~torch.nn.Module.state_dict` returns detached tensors over the parameters' "
        "memory, not copies",
    ),
    Claim(
        "state-dict-keeps-changing",
        state_dict_references,
        words='`best = model.state_dict()` keeps changing as training continues, so "the best weights" '
        "end up being the last ones",
    ),
    Claim(
        "deepcopy-separate-and-tied",
        _deepcopy_separate_with_ties,
        words="deepcopy gives separate parameters, buffers included, and keeps tied weights tied inside"
        " the copy",
    ),
    Claim(
        "target-grad",
        _target_fills_its_grad,
        words="`copy.deepcopy(model)` alone: its parameters keep `requires_grad`, so a loss computed "
        "through the target fills the target's `.grad`",
    ),
    Claim(
        "detached-input",
        _detached_input_stops_backward,
        words="the detached tensor has no history, so the backward pass stops there; no memory is copied",
    ),
    Claim(
        "requires-grad-false-raises",
        _requires_grad_false_on_non_leaf,
        words="setting `requires_grad=False` on a tensor in the middle of the graph raises an error, "
        "since only leaves may change it",
        covers=IN_WORDS,
    ),
    Claim(
        "clone-protects",
        _clone_protects,
        words="the clone has its own memory and, outside inference mode, its own version counter. While"
        " autograd records, gradients still flow through it",
    ),
    Claim(
        "detach-fails-where-saved",
        detach_fails_only_where_saved,
        words="`x.detach()` shares memory and version counter with `x`, so the in-place change reaches "
        "`x`. Where autograd saved `x` itself for the backward pass (after `x.sin()`, say), that "
        "pass then fails, unless [saved-tensor hooks](/explanation/four-questions.md#the-fifth-"
        "question-the-version-counter) were on. Where it did not (after `x + 1`, or `x.exp()`, "
        "which saves its output instead), it goes through",
    ),
    Claim(
        "no-grad-counted",
        _no_grad_counted_data_not,
        words="the change is made in place on the real tensor, and the version counter still records it",
    ),
    Claim(
        "data-skips-counter",
        _no_grad_counted_data_not,
        words="`p.data.copy_(...)` skips the version counter, so a gradient computed from a saved value"
        " comes out silently wrong",
    ),
    Claim(
        "snapshot",
        _snapshot,
        words="it has its own memory and no history, so later updates to `x` do not reach it and it "
        "holds no graph",
    ),
    Claim(
        "detach-follows",
        _detach_follows_writes,
        words="`x.detach()` alone shares the memory of `x`. So the later in-place writes into it "
        "(`x.add_(1)`, an optimizer's step) show in the detached tensor too",
    ),
    Claim(
        "deepcopy-refuses-modules",
        _module_with_attribute_fails,
        words='deepcopy refuses tensors that are not leaves, with an error that begins "Only Tensors '
        'created explicitly by the user". A forward pass run with gradients enabled that stores '
        "`self.something = self.weight * 2` leaves one on the module",
        covers=IN_WORDS,
    ),
    Claim(
        "detached-compute-stops-training",
        _detached_compute_stops_training,
        words="Computing with the detached copy instead stops the weight from training",
    ),
    Claim(
        "slice-clone",
        _clone_holds_only_the_slice,
        words="the clone holds only the elements of the slice",
        covers=IN_WORDS,
    ),
    Claim(
        "slice-deepcopy",
        _clone_holds_only_the_slice,
        words="`copy.deepcopy(big[:10])` of a plain `big` that does not require gradients copies the "
        "whole storage of `big`. Keeping the slice itself keeps all of `big` alive",
        covers=IN_WORDS,
    ),
    Claim(
        "parameter-class",
        _clone_detach_drop_parameter,
        words="clone and detach turn a {py:class}`~torch.nn.Parameter` into a plain tensor. Deepcopy "
        "keeps the class and `requires_grad`",
    ),
    Claim(
        "parameter-grad",
        parameter_deepcopy_drops,
        words="expecting deepcopy to carry `.grad` across. The deepcopy of a parameter starts without "
        "`.grad` (and without its Python attributes), where the deepcopy of a plain tensor copies"
        " both",
    ),
    Claim(
        "numpy-refuses-and-shares",
        _numpy_refuses_and_shares,
        words="with gradients enabled, {py:meth}`~torch.Tensor.numpy` refuses tensors that require "
        "gradients (`numpy(force=True)` does not). On the CPU the array shares the tensor's "
        "memory",
        needs=("numpy",),
        covers=IN_WORDS,
    ),
    Claim(
        "array-writes-reach-tensor",
        numpy_round_trip_shares,
        words="assuming the array is a copy. Writing into it changes the tensor, behind autograd's "
        "version counter",
        needs=("numpy",),
    ),
    Claim(
        "shared-memory-processes",
        _shared_memory_reaches_the_parent,
        words="under every start method measured, a worker's in-place write into a tensor in shared "
        "memory reaches the parent. That holds whether the tensor went as an argument of the "
        "process or through a queue",
        covers=IN_WORDS,
    ),
    Claim(
        "ordinary-tensor-start-method",
        _ordinary_tensor_depends_on_start_method,
        words="passing an ordinary tensor (one that requires no gradients) as an argument of a "
        '`Process` and counting on the start method. Under `"fork"` the worker writes into its '
        'own copy and the parent sees nothing. `"spawn"` and `"forkserver"` move the parent\'s '
        "tensor into shared memory, and the parent sees the write",
    ),
    Claim(
        "float-is-x",
        _float_is_x_no_copy,
        words="`x.float()` of a float32 tensor is `x` itself, so an in-place change to the result is a "
        "change to `x`",
    ),
    Claim(
        "float-look-alikes",
        _float_is_x_no_copy,
        words="`x.float()`, `x.type(torch.float32)` and `x.to(x.dtype)`, each of which returns `x` when"
        " there is nothing to convert",
    ),
    Claim(
        "optimizer-state",
        optimizer_state_dict_references,
        words="`optimizer.state_dict()` holds the optimizer's live state tensors, which every step "
        "changes in place",
        covers=IN_WORDS,
    ),
]
