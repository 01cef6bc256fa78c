"""``undefined symbol:`` from a compiled extension, told apart by whose symbol is missing.

When the dynamic loader cannot resolve a symbol of an extension module
(``vllm/_C.abi3.so``, ``sgl_kernel/common_ops.abi3.so``, ``flash_attn_2_cuda``),
CPython raises ``ImportError`` with the loader's text (``Python/dynload_shlib.c``
at v3.11.7; the link points at the file). The import-error package already holds
one record per extension of the engines; this record answers by the symbol,
which says more than the file does, and also when the paste names no file:

* a C++ name of torch (mangled ``_ZN3c10...``, ``_ZN2at...``, ``_ZN5torch...``):
  the extension was built against another torch;
* a CUDA function (the driver's ``cuGreenCtxStreamCreate``, a library's ``cuda...``):
  the installed NVIDIA driver or CUDA is older than the CUDA the extension was built for.

>>> import regex
>>> bool(regex.search(RECORDS[0].pattern or "", "undefined symbol: _ZN3c104cuda9SetDeviceEab"))
True
>>> bool(regex.search(RECORDS[0].pattern or "", "ops.so: undefined symbol: cuGreenCtxCreate"))
True
"""

from __future__ import annotations

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = ["DYNLOAD_SITE", "RECORDS"]

#: Where CPython raises the loader's text as ImportError (the loader's records link here).
DYNLOAD_SITE = {
    "repo": "python/cpython",
    "path": "Python/dynload_shlib.c",
    "line": 1,
    "revision": "v3.11.7",
}

RECORDS = (
    Curated(
        **DYNLOAD_SITE,  # type: ignore[arg-type]
        error_class="ImportError",
        template="{path}: undefined symbol: cu{symbol}",
        pattern=r"(.*?)undefined symbol: (_ZN\w*?(?:3c10|2at|5torch)\w*|cu[A-Za-z]\w*)",
        error_type="dependency",
        documentation="A compiled extension (the file named before the colon: vllm's _C,"
        " sgl-kernel's common_ops, flash-attn, xformers, a package built from source) asked"
        " the loader for a function the installed libraries do not have. The symbol says"
        " whose: a mangled C++ name holding c10, at or torch (_ZN3c10...) is torch's, so the"
        " extension was built against another torch release (torch's C++ functions change"
        " between releases); a cu... name (cuGreenCtxStreamCreate, cuTensorMapEncodeTiled,"
        " cudaXxx) is CUDA's, so it was built with a newer CUDA than the installed driver or"
        " CUDA libraries support.",
        solutions=(
            "For a torch symbol (_ZN3c10, _ZN2at, _ZN5torch): install the torch the"
            " extension was built for (pip show vllm or pip show sglang lists the torch it"
            " requires; e.g. pip install 'torch==2.9.1' where that is the one pinned), or"
            " reinstall the extension's package for the installed torch: pip install"
            " --force-reinstall --no-deps sgl-kernel (or vllm, flash-attn)",
            "For a CUDA symbol (cu...): compare the CUDA version the driver supports"
            " (nvidia-smi, top right) with the one torch was built for (python -c 'import"
            " torch; print(torch.version.cuda)'); upgrade the NVIDIA driver, or install the"
            " build for the older CUDA (pip install torch --index-url"
            " https://download.pytorch.org/whl/cu126)",
            "A package built from source must be rebuilt after torch or CUDA changes"
            " (pip install --no-build-isolation -e .); do not upgrade torch alone after"
            " installing an engine",
        ),
        example_fix="# before\npip install -U torch  # after installing sglang\n"
        "# after\npip install --force-reinstall sglang  # brings back the torch it pins",
        tags=(
            "abi-mismatch",
            "errcat:imports",
            "errcat:native:import-undefined-symbol",
            HIDDEN_SITE_TAG,
        ),
        trigger="Importing an engine or kernel package after torch was upgraded or"
        " downgraded, or with a wheel built for another torch or a newer CUDA.",
    ),
)
