"""Pinned memory and ``non_blocking=True``
=======================================

A copy between the CPU and the GPU crosses a bus that is much slower than either side. So
it can take longer than the work it feeds. Two switches help: page-locked ("pinned") host
memory, which the GPU reads directly, and ``non_blocking=True``, which lets Python carry on
while the copy runs. This example shows which transfers become asynchronous, the mistake that
makes possible, and the time it saves, measured.
"""

# %%
# This example needs a CUDA device. When it runs on one, it first prints that device.
import torch

# sphinx_gallery_thumbnail_path = "_thumbnails/plot_gpu_03_pinned.png"

if not torch.cuda.is_available():
    raise SystemExit("This example needs a CUDA device, and this torch has none.")
device = torch.device("cuda", torch.cuda.current_device())
print(f"{torch.cuda.get_device_name(device) = }")

# %%
# A 128 MiB batch in ordinary (pageable) host memory, and a pinned copy of it.
# ``pin_memory()`` is itself a copy: the two share no memory.
import tcdoc

torch.manual_seed(0)
pageable = torch.randn(32, 1024, 1024)
pinned = pageable.pin_memory()
print(f"{pageable.is_pinned() = }")
print(f"{pinned.is_pinned() = }")
print(f"{tcdoc.shares_memory(pageable, pinned) = }")

# sphinx_gallery_start_ignore
from tcdoc.claims import claim

claim(
    "`pin_memory()` is itself a copy: the two share no memory",
    pinned.is_pinned()
    and not pageable.is_pinned()
    and not tcdoc.shares_memory(pageable, pinned)
    and torch.equal(pageable, pinned),
    f"pageable.is_pinned()={pageable.is_pinned()}, pinned.is_pinned()={pinned.is_pinned()}, "
    f"shares memory: {tcdoc.shares_memory(pageable, pinned)}",
)
# sphinx_gallery_end_ignore

# %%
# We time each copy to the GPU twice over: until the call returns to Python, and until the
# data has arrived (after :func:`torch.cuda.synchronize`). Each figure is the median of five
# transfers, after one to warm up.
import statistics
import time


def time_copy(source, non_blocking):
    """Return the milliseconds until ``source.to(device)`` returned, and until it finished."""
    torch.cuda.synchronize(device)
    start = time.perf_counter()
    copied = source.to(device, non_blocking=non_blocking)
    returned = time.perf_counter()
    torch.cuda.synchronize(device)
    finished = time.perf_counter()
    del copied
    return 1000 * (returned - start), 1000 * (finished - start)


def median_times(source, non_blocking):
    """Return the median of :func:`time_copy` over five copies, after one to warm up."""
    time_copy(source, non_blocking)
    runs = [time_copy(source, non_blocking) for _ in range(5)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


timings = {
    (memory, non_blocking): median_times(source, non_blocking)
    for memory, source in (("pageable", pageable), ("pinned", pinned))
    for non_blocking in (False, True)
}
print(f"{'host memory':<12} {'non_blocking':<13} {'returned after':>15} {'finished after':>15}")
for (memory, non_blocking), (returned, finished) in timings.items():
    print(f"{memory:<12} {non_blocking!s:<13} {returned:12.2f} ms {finished:12.2f} ms")

# %%
# A copy hands control back before it finishes where its first figure is well below its
# second. Between the two, Python is free to do other work. The rows where that happened:
print(
    [
        f"{memory}, non_blocking={nb}"
        for (memory, nb), (returned, finished) in timings.items()
        if returned < finished / 2
    ]
)

# %%
# Here is the time that the early return could win, next to what pinned memory saves on its
# own:
pinned_free = timings["pinned", True][1] - timings["pinned", True][0]
pinned_faster = timings["pageable", False][1] - timings["pinned", False][1]
print({"host time freed by non_blocking (ms)": pinned_free, "copy time saved by pinning (ms)": pinned_faster})

# %%
# To see the overlap, give the host something to do while the copy runs. As a stand-in for
# real host work (say, preparing the next batch), we sleep for as long as one pinned copy takes.
host_work = timings["pinned", False][1] / 1000


def copy_then_work(source, non_blocking):
    """Return the milliseconds to copy ``source`` to the GPU and do the host work after the call."""
    torch.cuda.synchronize(device)
    start = time.perf_counter()
    copied = source.to(device, non_blocking=non_blocking)
    time.sleep(host_work)
    torch.cuda.synchronize(device)
    elapsed = time.perf_counter() - start
    del copied
    return 1000 * elapsed


blocking = statistics.median(copy_then_work(pinned, False) for _ in range(5))
overlapped = statistics.median(copy_then_work(pinned, True) for _ in range(5))
print({"blocking copy, then the work (ms)": blocking, "non_blocking copy during the work (ms)": overlapped})

# %%
# The mistake
# -----------
# The other direction is where the danger lies. A copy from the GPU into pinned memory with
# ``non_blocking=True`` returns at once, before the bytes have arrived. Reading the host copy
# then races with the copy. To show this safely, we copy into a buffer of zeros of our own,
# and queue some slow GPU work first so that the copy waits behind it.
ones = torch.ones(32, 1024, 1024, device=device)
busy = torch.randn(4096, 4096, device=device)
host = torch.zeros(32, 1024, 1024, pin_memory=True)

for _ in range(50):
    product = busy @ busy
host.copy_(ones, non_blocking=True)
copied = torch.cuda.Event()
copied.record()

finished_before = copied.query()
sum_before = host.sum().item()
copied.synchronize()
print(
    {
        "copy finished? (before, after synchronizing)": (finished_before, copied.query()),
        "sum of the host copy (before, after)": (sum_before, host.sum().item()),
        "sum it should have": ones.numel(),
    }
)

# %%
# The values read after synchronizing are the copied ones. ``.to("cpu", non_blocking=True)``
# has the same hazard: it returns a tensor in pinned memory whose values may not be there yet.
back = ones.to("cpu", non_blocking=True)
torch.cuda.synchronize(device)
print(f"{back.is_pinned() = }")
print(f"{back.sum().item() = }")

# sphinx_gallery_start_ignore
claim(
    'The values read after synchronizing are the copied ones. `.to("cpu", non_blocking=True)` has the '
    "same hazard: it returns a tensor in pinned memory whose values may not be there yet",
    back.is_pinned() and back.device.type == "cpu" and back.sum().item() == ones.numel(),
    f"back.is_pinned()={back.is_pinned()}, back.sum()={back.sum().item()}, not {ones.numel()}",
)
# sphinx_gallery_end_ignore

# %%
# These values were measured with:
print(tcdoc.environment("cuda"))

# %%
# Next: :ref:`sphx_glr_auto_examples_gpu_plot_gpu_04_model.py`, a whole model on the GPU.
