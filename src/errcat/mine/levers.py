r"""What a user can change, and how a test's terms name it: the levers of a guard.

A :class:`Ref` is one lever a term of a guard's test reads. Its ``kind``, in
the order solutions are ranked (:data:`RANK`):

* ``flag``: a command-line flag or engine argument the project's parser defines;
* ``request``: a field of a request (``max_tokens``, ``tools``);
* ``model``: a key of the model's ``config.json`` (``architectures``);
* ``env``: an environment variable the project reads;
* ``package``: an installed package (``flashinfer``), or its version;
* ``hardware``: the device or platform (CUDA, ROCm, compute capability): it
  scopes advice and is a fix only when the message itself says so;
* ``arg``: a parameter of the raising function (for a caller of the API).

Everything else is internal state. The classifiers here read one
expression; :class:`errcat.mine.conditions.Reader` applies them through
locals, attributes and callers.

>>> import ast
>>> def read(source, imported=frozenset({"flashinfer", "torch"})):
...     return hardware_ref(ast.parse(source, mode="eval").body) or package_ref(
...         ast.parse(source, mode="eval").body, imported
...     )
>>> read("_is_hip").shown(), read("current_platform.is_rocm()").shown()
('ROCm (AMD GPUs)', 'ROCm (AMD GPUs)')
>>> read("is_flashinfer_available()").shown(), read("torch.__version__").shown()
('the flashinfer package', 'the torch version')
>>> read("is_pin_memory_available()") is None
True
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from dataclasses import dataclass

__all__ = [
    "KINDS",
    "MODEL_KEYS",
    "RANK",
    "SOURCE_KINDS",
    "Ref",
    "hardware_ref",
    "is_model_config",
    "model_key",
    "package_ref",
]

#: Lever kinds, best first: solutions are ranked in this order.
KINDS = ("flag", "request", "model", "env", "package", "hardware", "arg")
#: Lever kinds that a term computed from them names ("(from --tp-size)").
SOURCE_KINDS = frozenset({"flag", "env", "request", "model", "package"})
RANK = {kind: n for n, kind in enumerate(KINDS)}


@dataclass(frozen=True)
class Ref:
    """What a term of a test is to the user: one lever (see the module docstring)."""

    kind: str  # one of KINDS
    name: str  # --flag, a request field, a config key, VAR, a package, a platform, a parameter
    choices: tuple[str, ...] = ()
    is_bool: bool = False
    default: str | None = None
    flag: str | None = None  # an argument named as a flag of the project (its likely source)
    help: str = ""  # the flag's own help text
    version: bool = False  # a package's version (not whether it is installed)

    def shown(self) -> str:
        """The term as the text names it."""
        if self.kind == "env":
            return f"environment variable {self.name}"
        if self.kind == "arg":
            return f"`{self.name}` ({self.flag})" if self.flag else f"`{self.name}`"
        if self.kind == "request":
            return f"the request's `{self.name}`"
        if self.kind == "model":
            return f"the model's `{self.name}` (config.json)" if self.name else "the model"
        if self.kind == "package":
            return f"the {self.name} {'version' if self.version else 'package'}"
        return self.name

    @property
    def key(self) -> str:
        """``kind:name``: one lever, whatever path led to it."""
        return f"{self.kind}:{self.name}"


# -- hardware and platform ---------------------------------------------------------

_PLATFORMS = {
    "cuda": "CUDA (NVIDIA GPUs)",
    "cuda_alike": "CUDA or ROCm GPUs",
    "hip": "ROCm (AMD GPUs)",
    "rocm": "ROCm (AMD GPUs)",
    "npu": "Ascend NPUs",
    "xpu": "Intel XPUs",
    "cpu": "CPU",
    "mps": "Apple MPS",
    "tpu": "TPUs",
    "hpu": "Gaudi HPUs",
    "musa": "Moore Threads GPUs",
    "blackwell": "Blackwell GPUs",
    "hopper": "Hopper GPUs",
}
_HARDWARE_NAME = re.compile(
    r"^_*(?:is|use|on)_(?P<what>cuda_alike|cuda|hip|rocm|npu\w*|xpu|cpu|mps|tpu|hpu|musa|"
    r"blackwell|hopper|gfx\d+\w*|sm\d+\w*|mi\d+\w*)(?:_supported|_available|_arch\w*|_device)?$",
    re.IGNORECASE,
)
_CAPABILITY = re.compile(r"(?i)device_capability|compute_capability|get_device_name|is_sm\d+")
_PLATFORM_OBJECTS = frozenset({"current_platform", "get_platform", "platform"})


def _identifier(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _platform_word(what: str) -> str:
    low = what.lower()
    for key, shown in _PLATFORMS.items():
        if low == key or (key == "npu" and low.startswith("npu")):
            return shown
    if low.startswith(("gfx", "mi")):
        return f"AMD {what.upper()} GPUs"
    if low.startswith("sm"):
        return f"NVIDIA {what.upper()} GPUs"
    return what


def hardware_ref(node: ast.expr) -> Ref | None:
    """The device or platform a term tests (``_is_hip``, ``is_cuda()``, ``has_device_capability``).

    >>> hardware_ref(ast.parse("cls.has_device_capability(80)", mode="eval").body).shown()
    'the GPU compute capability'
    """
    name = _identifier(node)
    found = _HARDWARE_NAME.match(name)
    if found:
        return Ref("hardware", _platform_word(found.group("what")))
    if _CAPABILITY.search(name):
        return Ref("hardware", "the GPU compute capability")
    if (
        isinstance(node, ast.Attribute)
        and node.attr in ("hip", "cuda")
        and _identifier(node.value) == "version"
    ):  # torch.version.hip
        return Ref("hardware", _platform_word(node.attr))
    if name == "is_available" and isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and _identifier(func.value) == "cuda":
            return Ref("hardware", "a CUDA GPU")
    base = node.func if isinstance(node, ast.Call) else node
    while isinstance(base, (ast.Attribute, ast.Call)):
        base = base.value if isinstance(base, ast.Attribute) else base.func
        if isinstance(base, (ast.Name, ast.Attribute)) and _identifier(base) in _PLATFORM_OBJECTS:
            return Ref("hardware", "the platform (device type)")
    return None


# -- packages ----------------------------------------------------------------------

_AVAILABLE = re.compile(r"^_*(?:is|has)_(?P<name>\w+?)_(?:available|installed)$", re.IGNORECASE)
_HAS = re.compile(r"^_*has_(?P<name>\w+)$")
_FIND_SPEC = frozenset({"find_spec", "_is_package_available", "is_package_available"})
_VERSION_OF = frozenset({"version", "get_package_version", "_get_version"})


def _package(name: str, imported: Collection[str]) -> str | None:
    """The imported package a name stands for (``deep_gemm``, ``flash_attn``), if any."""
    low = name.lower()
    for candidate in (low, low.replace("-", "_")):
        if candidate in imported:
            return candidate
    return None


def package_ref(node: ast.expr, imported: Collection[str]) -> Ref | None:
    """The installed package (or its version) a term tests, when the project imports it.

    ``imported`` holds the top-level packages the mined code imports; only
    those are named (``is_pin_memory_available()`` is no package).

    >>> package_ref(ast.parse('importlib.util.find_spec("triton")', mode="eval").body, {"triton"})
    Ref(kind='package', name='triton', choices=(), is_bool=False, default=None, flag=None, help='', version=False)
    """  # noqa: E501
    if isinstance(node, ast.Call):
        callee = _identifier(node)
        if (
            callee in _FIND_SPEC | _VERSION_OF
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found = _package(node.args[0].value.split(".")[0], imported)
            if found is not None:
                return Ref("package", found, version=callee in _VERSION_OF)
            return None
        match = _AVAILABLE.match(callee) or _HAS.match(callee)
        if match and not node.args:
            found = _package(match.group("name"), imported)
            return Ref("package", found) if found is not None else None
        if callee in ("parse", "Version", "LooseVersion") and len(node.args) == 1:
            return package_ref(node.args[0], imported)
        return None
    if isinstance(node, ast.Attribute) and node.attr == "__version__":
        found = _package(ast.unparse(node.value).split(".")[0], imported)
        return Ref("package", found, version=True) if found is not None else None
    return None


# -- the model's config ------------------------------------------------------------

#: Attributes that hold (a part of) the model's ``config.json``.
_MODEL_CONFIGS = frozenset(
    {
        "hf_config",
        "hf_text_config",
        "hf_vision_config",
        "text_config",
        "vision_config",
        "audio_config",
        "thinker_config",
        "talker_config",
        "llm_config",
        "language_config",
        "pretrained_config",
    }
)


#: Keys every model's config.json may hold (transformers' PretrainedConfig): a parameter
#: named so is read as that key.
MODEL_KEYS = frozenset(
    {
        "architectures",
        "model_type",
        "quantization_config",
        "torch_dtype",
        "max_position_embeddings",
        "rope_scaling",
        "num_attention_heads",
        "num_key_value_heads",
        "num_hidden_layers",
        "hidden_size",
        "vocab_size",
        "tie_word_embeddings",
    }
)


def is_model_config(node: ast.expr) -> bool:
    """Whether an expression is the model's config object itself (``self.hf_text_config``).

    >>> is_model_config(ast.parse("self.model_config.hf_config", mode="eval").body)
    True
    """
    return _identifier(node) in _MODEL_CONFIGS and not isinstance(node, ast.Call)


def model_key(node: ast.expr, model_objects: Collection[str] = ()) -> str | None:
    """The ``config.json`` key a term reads (``hf_config.architectures``: ``architectures``).

    ``model_objects`` are further names that hold the model's config (a
    parameter annotated as a ``transformers`` config class).

    >>> model_key(
    ...     ast.parse('getattr(self.model_config.hf_config, "rope_scaling")', mode="eval").body
    ... )
    'rope_scaling'
    >>> model_key(ast.parse("config.num_experts", mode="eval").body, {"config"})
    'num_experts'
    >>> model_key(ast.parse("cfg.hf_config", mode="eval").body) is None
    True
    """
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        node = ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Load())
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):  # hf_config.quantization_config.get("quant_method")
        inner = model_key(node.func.value, model_objects)
        return f"{inner}.{node.args[0].value}" if inner is not None else None
    if not isinstance(node, ast.Attribute) or node.attr.startswith("_"):
        return None
    base = node.value
    base_name = _identifier(base)
    if base_name in _MODEL_CONFIGS:
        return node.attr
    if isinstance(base, ast.Name) and base.id in model_objects:
        return node.attr
    if (
        isinstance(base, ast.Attribute)
        and isinstance(base.value, ast.Name)
        and base.value.id == "self"
        and base.attr in model_objects
    ):
        return node.attr
    inner = model_key(base, model_objects) if isinstance(base, ast.Attribute) else None
    if inner is not None and inner.endswith(("_config", "quantization_config")):
        return f"{inner}.{node.attr}"
    return None
