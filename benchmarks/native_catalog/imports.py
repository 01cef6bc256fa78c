"""The import system's own errors, for modules and names no catalog knows by name.

``No module named 'x'`` and ``cannot import name 'y' from 'x'`` are printed by
CPython's import machinery (``Lib/importlib/_bootstrap.py`` finds no module;
``Python/ceval.c`` finds no name in a module it imported). The stack catalog
``errcat-data-imports`` holds one record per module and per name that the
engines' dependency closure knows (which distribution provides ``sgl_kernel``,
which transformers release added a name); these three records answer the rest,
so that an import error is never answered by a library that merely copied
CPython's wording (pydantic's lazy importer says ``cannot import name`` too).
Their advice is what holds for any module: which environment, which release.
"""

from __future__ import annotations

from native_catalog.spec import Spec

__all__ = ["RECORDS"]

#: The revisions of CPython these lines were read at (the wording is the same in every
#: release since 3.8; lines move): ``import_from`` in Python/ceval.c, and
#: ``_find_and_load_unlocked`` in Lib/importlib/_bootstrap.py.
CEVAL_SHA = "7be4e350aadf93c4be5c97b7291d0db2b6bc1dc4"
CEVAL_LINE = 5301
CEVAL_CIRCULAR_LINE = 5299
BOOTSTRAP_SHA = "f3fd06a2e4d42cf8e4e82a5b6cbff1e5a515aff3"
BOOTSTRAP_LINE = 948

_REFERENCES = (
    "https://docs.python.org/3/reference/import.html",
    "https://docs.python.org/3/library/exceptions.html#ImportError",
    "https://pip.pypa.io/en/stable/cli/pip_check/",
)

RECORDS = (
    Spec(
        kind="import-missing-module",
        repo="python/cpython",
        path="Lib/importlib/_bootstrap.py",
        line=BOOTSTRAP_LINE,
        sha=BOOTSTRAP_SHA,
        error_class="ModuleNotFoundError",
        also_classes=("ImportError",),
        tags=("errcat:imports",),
        template="No module named {name!r}",
        pattern=r"No module named ('[^'\s]+'|\"[^\"\s]+\")(?:; '[^'\s]+' is not a package)?",
        documentation="Python looked for the module named in the message on every folder of sys.path and"
        " found nothing: the distribution that provides it is not installed in the Python"
        " that ran the command, or the installed release of its package has no such"
        " submodule. The name to import is often not the name to install (cv2 comes from"
        " opencv-python, flash_attn from flash-attn), and a compiled module of an installed"
        " package (vllm._C) missing means its binary was not built for this platform.",
        solutions=(
            "Install the distribution that provides {name} into the Python that runs the"
            " engine: python -m pip install <distribution> (python -m pip --version shows"
            " which Python pip installs into)",
            "If it is installed (python -m pip show <distribution>), run the command from"
            " the same environment: the activated venv or conda env, or the engine's docker"
            " image, not the system python",
            "A submodule ('package.module') missing from an installed package: the installed"
            " release is older or newer than the code importing it; install the release the"
            " engine requires (pip install 'vllm==<your version>' or 'sglang==<your version>'"
            " brings its pins back) and run python -m pip check",
            "A compiled module (vllm._C, sgl_kernel's ops, flash_attn_2_cuda): reinstall the"
            " prebuilt wheel made for your torch and CUDA rather than a source build",
        ),
        example_fix="# before\nvllm serve M  # ModuleNotFoundError: No module named 'flash_attn'\n"
        "# after\npython -m pip install flash-attn --no-build-isolation\npython -m pip check\n"
        "vllm serve M",
        prevention=(
            "Install the engine into a fresh virtual environment and let pip choose its pinned"
            " dependencies; run python -m pip check after adding packages",
        ),
        references=_REFERENCES,
    ),
    Spec(
        kind="import-cannot-import-name",
        repo="python/cpython",
        path="Python/ceval.c",
        line=CEVAL_LINE,
        sha=CEVAL_SHA,
        error_class="ImportError",
        tags=("errcat:imports",),
        template="cannot import name {name!r} from {module!r}",
        pattern=r"cannot import name ('[^'\s]+') from ('[^'\s]+'|<unknown module name>)"
        r"(?: \((?:unknown location|[^()]+)\))?",
        documentation="The module after 'from' was found and imported, but it does not"
        " define the name asked for: the code that imports it was written for another release of that package."
        " Two packages out of step is the usual cause (a plugin, verl or a training framework"
        " built for another vllm; an engine and the transformers or torch installed beside"
        " it), or a local file named like the package shadowing it.",
        solutions=(
            "Install the release of the package that defines {name}: the one the importing"
            " package requires (python -m pip show <importing package> lists its Requires;"
            " python -m pip check names the conflict)",
            "Or move the importing package to the release made for the installed one"
            " (upgrade or downgrade it to match, for example the verl or plugin release that"
            " names your vllm version)",
            "If the path in parentheses is a file of yours (a local transformers.py,"
            " vllm/ folder), rename it: it shadows the installed package",
        ),
        example_fix="# before\npython -m pip install -U vllm  # the plugin still imports a"
        " name the new vllm dropped\n# after\npython -m pip install 'vllm==<the release the"
        " plugin requires>'\npython -m pip check",
        prevention=(
            "Pin the engine and the packages built on it together (a requirements file or"
            " lock), and upgrade them together",
        ),
        references=_REFERENCES,
    ),
    Spec(
        kind="import-cannot-import-name",
        repo="python/cpython",
        path="Python/ceval.c",
        line=CEVAL_CIRCULAR_LINE,
        sha=CEVAL_SHA,
        error_class="ImportError",
        tags=("errcat:imports",),
        template="cannot import name {name!r} from partially initialized module {module!r}"
        " (most likely due to a circular import)",
        pattern=r"cannot import name ('[^'\s]+') from partially initialized module"
        r" ('[^'\s]+') \(most likely due to a circular import\)(?: \([^()]+\))?",
        documentation="The module named was still running its own imports when something"
        " asked it for the name: two modules import each other at load time. In a user's"
        " setup this nearly always means a file or folder of the user's own named like a"
        " package (vllm.py, sglang/, transformers.py in the working directory) that Python"
        " imported instead of the installed one, or a half-installed package.",
        solutions=(
            "Rename any file or folder in the working directory named like the package"
            " (the path in parentheses shows which file Python loaded), and delete its"
            " __pycache__",
            "Run from another directory, or reinstall the package: python -m pip install"
            " --force-reinstall --no-deps <package>",
        ),
        example_fix="# before\n~/work$ ls\nvllm.py\n~/work$ python vllm.py\n# after\n~/work$ mv"
        " vllm.py serve_vllm.py && rm -rf __pycache__\n~/work$ python serve_vllm.py",
        references=_REFERENCES,
    ),
)
