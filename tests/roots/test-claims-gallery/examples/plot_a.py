"""
A clone
=======

A clone has memory of its own.
"""

# %%
# Writing into the clone leaves `x` as it was.

x = [1, 2, 3]
y = list(x)
y[0] = 10
print(x)

# sphinx_gallery_start_ignore
from tcdoc.claims import claim  # noqa: E402 - a hidden block imports where it checks

claim("Writing into the clone leaves `x` as it was", x == [1, 2, 3], f"x is {x}")
# sphinx_gallery_end_ignore
