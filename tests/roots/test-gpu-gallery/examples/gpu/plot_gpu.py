"""On the GPU
==========
"""

import torch

on_gpu = torch.arange(3.0, device="cuda") * 7
