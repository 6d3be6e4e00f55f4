"""tools/make_inventories.py: the offline inventories, their addresses, and that they are current."""

from __future__ import annotations

from pathlib import Path

import pytest
import sphobjinv

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


tool = load_script("tools/make_inventories.py")
TORCH_DOCS, PYTHON_DOCS = tool.TORCH_DOCS, tool.PYTHON_DOCS
official_url = tool.official_url


def objects(path: Path) -> list[tuple[str, str, str, str]]:
    """The entries of an inventory file: (name, domain:role, address, display name)."""
    inventory = sphobjinv.Inventory(path)
    return sorted(
        (o.name, f"{o.domain}:{o.role}", o.uri_expanded, o.dispname_expanded) for o in inventory.objects
    )


# -- The inventories kept in the repository ----------------------------------------------------


def test_committed_inventories_are_what_the_script_writes(tmp_path: Path) -> None:
    written = tool.write(tmp_path)
    assert [p.name for p in written] == [project.file for project in tool.PROJECTS]
    for path in written:
        committed = ROOT / "docs" / "_inventories" / path.name
        assert committed.is_file(), f"{committed} is missing: run `python -m nox -s inventories`"
        assert objects(committed) == objects(path), (
            f"{committed.name} is out of date: run `python -m nox -s inventories` and commit the result"
        )


def test_docs_conf_reads_every_inventory_from_the_repository() -> None:
    import runpy

    mapping = runpy.run_path(str(ROOT / "docs" / "conf.py"))["intersphinx_mapping"]
    for project in tool.PROJECTS:
        name = project.file.removesuffix(".inv")
        url, inventory = mapping[name]
        assert inventory == f"_inventories/{project.file}"  # a file: nothing is downloaded
        assert url == tool.BASES[project.file]


def test_the_names_the_examples_need_are_in_the_inventories() -> None:
    torch_names = {o[0] for o in objects(ROOT / "docs" / "_inventories" / "torch.inv")}
    python_names = {o[0] for o in objects(ROOT / "docs" / "_inventories" / "python.inv")}
    assert {"torch.Tensor.clone", "torch.Tensor.detach", "torch.randn", "torch.no_grad"} <= torch_names
    assert {"copy.deepcopy", "copy.copy", "None", "ValueError"} <= python_names


# -- Which names the site uses ------------------------------------------------------------------


def test_names_in_roles_take_the_target_of_titled_references() -> None:
    text = "{py:meth}`x.clone() <torch.Tensor.clone>`, :class:`~torch.nn.Parameter` and :py:func:`!id`"
    assert tool.names_in_roles(text) == {"torch.Tensor.clone", "torch.nn.Parameter", "id"}


def test_names_in_code_follow_imports_and_aliases() -> None:
    code = "import torch.autograd.forward_ad as fwAD\nfrom torch import nn\nimport copy\n"
    code += "fwAD.make_dual\nnn.Linear(2, 2)\ncopy.deepcopy\ntorch.no_such_name\n"
    found = tool.names_in_code(code)
    assert {"torch.autograd.forward_ad.make_dual", "torch.nn.Linear", "copy.deepcopy"} <= found
    assert "torch.no_such_name" not in found
    assert "torch.nn" not in found  # only whole chains


def test_names_in_code_take_tensor_and_module_attributes_that_exist() -> None:
    found = tool.names_in_code("y = x.detach()\ny.requires_grad\nx._version\nx._base\nm.state_dict()\nd.nope")
    assert {"torch.Tensor.detach", "torch.Tensor.requires_grad", "torch.Tensor._version"} <= found
    assert "torch.nn.Module.state_dict" in found
    assert "torch.Tensor._base" not in found  # private, and not documented
    assert not any(name.endswith(".nope") for name in found)


def test_names_in_annotations_resolve_imports_strings_and_aliases() -> None:
    code = (
        "from typing import Literal\nfrom matplotlib.axes import Axes\nimport torch\n"
        'Kind = Literal["a", "b c"]\n'
        'def f(ax: "Axes | None", x: torch.Tensor) -> dict[str, int]: ...\n'
    )
    found = tool.names_in_annotations(code)
    assert {"typing.Literal", "matplotlib.axes.Axes", "torch.Tensor", "dict", "str", "int"} <= found
    assert "torch" not in found


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("torch.Tensor", "py:class"),
        ("torch.no_grad", "py:class"),
        ("torch.randn", "py:function"),
        ("torch.Tensor.clone", "py:method"),
        ("torch.Tensor.backward", "py:method"),
        ("torch.Tensor.is_leaf", "py:attribute"),
        ("torch.channels_last", "py:data"),
        ("torch.autograd.forward_ad", "py:module"),
        ("copy.deepcopy", "py:function"),
        ("ValueError", "py:exception"),
        ("None", "py:data"),
    ],
)
def test_each_name_gets_the_role_of_what_it_is(name: str, role: str) -> None:
    assert tool.role(name) == role


# -- Addresses on the official sites ----------------------------------------------------------

GENERATED = [
    # Tensor methods and attributes with a page of their own.
    "torch.Tensor.clone", "torch.Tensor.contiguous", "torch.Tensor.copy_", "torch.Tensor.cpu",
    "torch.Tensor.detach", "torch.Tensor.detach_", "torch.Tensor.expand", "torch.Tensor.is_contiguous",
    "torch.Tensor.is_leaf", "torch.Tensor.item", "torch.Tensor.lerp_", "torch.Tensor.new_tensor",
    "torch.Tensor.numpy", "torch.Tensor.requires_grad", "torch.Tensor.requires_grad_",
    "torch.Tensor.reshape", "torch.Tensor.share_memory_", "torch.Tensor.sigmoid", "torch.Tensor.stride",
    "torch.Tensor.to", "torch.Tensor.untyped_storage", "torch.Tensor.view", "torch.Tensor.grad",
    # Functions and classes in torch and its submodules.
    "torch.as_tensor", "torch.clone", "torch.from_numpy", "torch.load", "torch.no_grad", "torch.save",
    "torch.tensor", "torch.nn.Module", "torch.nn.utils.weight_norm",
    "torch.nn.utils.parametrizations.weight_norm", "torch.autograd.forward_ad.dual_level",
    "torch.autograd.forward_ad.make_dual", "torch.autograd.grad",
]  # fmt: skip


@pytest.mark.parametrize("name", GENERATED)
def test_generated_pages(name: str) -> None:
    assert official_url(name) == f"{TORCH_DOCS}generated/{name}.html#{name}"


@pytest.mark.parametrize(
    ("name", "page"),
    [
        ("torch.Tensor", "tensors.html#torch.Tensor"),
        ("torch.Tensor.T", "tensors.html#torch.Tensor.T"),
        ("torch.Tensor.dtype", "tensor_attributes.html#torch.dtype"),
        ("torch.float32", "tensor_attributes.html#torch.dtype"),
        ("torch.nn.Parameter", "generated/torch.nn.parameter.Parameter.html#torch.nn.Parameter"),
        ("torch.nn.Module.state_dict", "generated/torch.nn.Module.html#torch.nn.Module.state_dict"),
        ("torch.channels_last", "tensor_attributes.html#torch.channels_last"),
        ("torch.contiguous_format", "tensor_attributes.html#torch.contiguous_format"),
        ("torch.preserve_format", "tensor_attributes.html#torch.preserve_format"),
        ("torch.multiprocessing", "multiprocessing.html#module-torch.multiprocessing"),
        ("torch.autograd", "autograd.html#module-torch.autograd"),
        ("torch.autograd.forward_ad", "autograd.html#module-torch.autograd.forward_ad"),
        ("torch.UntypedStorage.data_ptr", "storage.html#torch.UntypedStorage.data_ptr"),
        ("torch.utils.benchmark.Timer", "benchmark_utils.html#torch.utils.benchmark.Timer"),
        # Attributes with no page of their own link to the note that explains them.
        ("torch.Tensor.grad_fn", "notes/autograd.html#how-autograd-encodes-the-history"),
        ("torch.Tensor._version", "notes/autograd.html#in-place-correctness-checks"),
    ],
)
def test_torch_pages_with_their_own_layout(name: str, page: str) -> None:
    assert official_url(name) == TORCH_DOCS + page


@pytest.mark.parametrize(
    ("name", "page"),
    [
        ("copy.deepcopy", "library/copy.html#copy.deepcopy"),
        ("copy.copy", "library/copy.html#copy.copy"),
        ("id", "library/functions.html#id"),
        ("int", "library/functions.html#int"),
        ("str", "library/stdtypes.html#str"),
        ("None", "library/constants.html#None"),
        ("pickle", "library/pickle.html#module-pickle"),
        ("RuntimeError", "library/exceptions.html#RuntimeError"),
    ],
)
def test_python_pages(name: str, page: str) -> None:
    assert official_url(name) == PYTHON_DOCS + page


def test_matplotlib_classes_are_addressed_by_their_public_name() -> None:
    public = "https://matplotlib.org/stable/api/_as_gen/matplotlib.axes.Axes.html#matplotlib.axes.Axes"
    assert official_url("matplotlib.axes.Axes") == public
    assert official_url("matplotlib.axes._axes.Axes") == public  # where autodoc finds it


def test_numpy_functions() -> None:
    assert (
        official_url("numpy.zeros")
        == "https://numpy.org/doc/stable/reference/generated/numpy.zeros.html#numpy.zeros"
    )
    assert official_url("numpy") is None  # a module: no page known


@pytest.mark.parametrize(
    "name",
    [
        "torch.Tensor.no_such_method",
        "torch.no_such_function",
        "tcdoc.compare",
        "torch.nn.utils",  # a module whose page is not known
        "torch.Tensor.data",  # not in PyTorch's reference
        "torch.multiprocessing.get_context",  # Python's, re-exported
    ],
)
def test_unknown_foreign_or_undocumented_names_get_no_address(name: str) -> None:
    assert official_url(name) is None


def test_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match="name must be a str, got int"):
        official_url(3)
