"""On the CPU
===========
"""

import torch

print(torch.arange(3) * 7)
