"""
An example
==========

A paragraph.
"""

# %%
print(1 + 1)
