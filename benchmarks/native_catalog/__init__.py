"""The curated native catalog (CUDA, HIP, NCCL, Gloo, crashes) as specs; see build_native.py."""
