"""official_url: every PyTorch and Python name the pages link to gets its official page."""

from __future__ import annotations

import pytest

from tcdoc.sphinxext._links import PYTHON_DOCS, TORCH_DOCS, official_url

GENERATED = [
    # Tensor methods and attributes with a page of their own.
    "torch.Tensor.clone", "torch.Tensor.contiguous", "torch.Tensor.copy_", "torch.Tensor.cpu",
    "torch.Tensor.detach", "torch.Tensor.detach_", "torch.Tensor.expand", "torch.Tensor.is_contiguous",
    "torch.Tensor.is_leaf", "torch.Tensor.item", "torch.Tensor.lerp_", "torch.Tensor.new_tensor",
    "torch.Tensor.numpy", "torch.Tensor.requires_grad", "torch.Tensor.requires_grad_",
    "torch.Tensor.reshape", "torch.Tensor.share_memory_", "torch.Tensor.sigmoid", "torch.Tensor.stride",
    "torch.Tensor.to", "torch.Tensor.untyped_storage", "torch.Tensor.view",
    # Functions and classes in torch and its submodules.
    "torch.as_tensor", "torch.clone", "torch.from_numpy", "torch.load", "torch.no_grad", "torch.save",
    "torch.tensor", "torch.nn.Module", "torch.nn.utils.weight_norm",
    "torch.nn.utils.parametrizations.weight_norm", "torch.autograd.forward_ad.dual_level",
    "torch.autograd.forward_ad.make_dual", "torch.autograd.grad",
]  # fmt: skip


@pytest.mark.parametrize("name", GENERATED)
def test_generated_pages(name):
    assert official_url(name) == f"{TORCH_DOCS}generated/{name}.html#{name}"


@pytest.mark.parametrize(
    ("name", "page"),
    [
        ("torch.Tensor", "tensors.html#torch.Tensor"),
        ("torch.nn.Parameter", "generated/torch.nn.parameter.Parameter.html#torch.nn.Parameter"),
        ("torch.nn.Module.state_dict", "generated/torch.nn.Module.html#torch.nn.Module.state_dict"),
        ("torch.channels_last", "tensor_attributes.html#torch.channels_last"),
        ("torch.contiguous_format", "tensor_attributes.html#torch.contiguous_format"),
        ("torch.preserve_format", "tensor_attributes.html#torch.preserve_format"),
        ("torch.multiprocessing", "multiprocessing.html#torch.multiprocessing"),
        ("torch.autograd", "autograd.html#module-torch.autograd"),
        ("torch.autograd.forward_ad", "autograd.html#module-torch.autograd.forward_ad"),
        ("torch.UntypedStorage.data_ptr", "storage.html#torch.UntypedStorage.data_ptr"),
        # Attributes with no page of their own link to the note that explains them.
        ("torch.Tensor.grad_fn", "notes/autograd.html#how-autograd-encodes-the-history"),
        ("torch.Tensor._version", "notes/autograd.html#in-place-correctness-checks"),
    ],
)
def test_torch_pages_with_their_own_layout(name, page):
    assert official_url(name) == TORCH_DOCS + page


@pytest.mark.parametrize(
    ("name", "page"),
    [
        ("copy.deepcopy", "library/copy.html#copy.deepcopy"),
        ("copy.copy", "library/copy.html#copy.copy"),
        ("id", "library/functions.html#id"),
        ("pickle", "library/pickle.html#module-pickle"),
        ("RuntimeError", "library/exceptions.html#RuntimeError"),
    ],
)
def test_python_pages(name, page):
    assert official_url(name) == PYTHON_DOCS + page


@pytest.mark.parametrize(
    "name", ["torch.Tensor.no_such_method", "torch.no_such_function", "numpy.ndarray", "tcdoc.compare"]
)
def test_unknown_or_foreign_names_stay_unresolved(name):
    assert official_url(name) is None


def test_rejects_non_strings():
    with pytest.raises(TypeError, match="name must be a str, got int"):
        official_url(3)  # type: ignore[arg-type]
