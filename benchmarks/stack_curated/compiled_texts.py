"""Compiled extensions' texts users paste, whose cause the text alone does not say.

``build_stack.py`` mines these projects' Rust and C texts (``stack_extensions``)
with generic advice; the four here are pasted often enough, and their cause is
far enough from their words, to be written by hand (each replaces the mined
record of its own text, :func:`build_stack.covered`):

* msgspec's ``TypeError: Unexpected keyword argument 'x'`` (``_core.c``, a
  ``Struct``'s constructor): vLLM's ``SamplingParams`` is a msgspec ``Struct``,
  so a wrapper written for an older vLLM that passes a removed keyword
  (``use_beam_search``, removed in vLLM 0.6.3) meets msgspec's wording, not
  Python's ``got an unexpected keyword argument``;
* openai-harmony's ``error downloading or loading vocab file`` (its tiktoken
  loader, ``src/tiktoken_ext/public_encodings.rs``): gpt-oss served where the
  ``o200k_base.tiktoken`` vocabulary cannot be downloaded;
* serde_json's syntax errors raised by tokenizers' ``Tokenizer.from_file``
  (``Exception: expected value at line 1 column 1``, ``EOF while parsing a string
  at line ...``): a ``tokenizer.json`` that is not JSON, a git-lfs pointer or an
  HTML page, or that was cut short (two records).

Threads learned from (even-numbered): lm-sys/FastChat#3600 and
hiyouga/LlamaFactory#5966 (``use_beam_search``), openai/harmony#46 and
sgl-project/sglang#18074 (offline gpt-oss), LianjiaTech/BELLE#48 and #114 (a
``tokenizer.json`` that was a git-lfs pointer).

>>> import regex
>>> [
...     bool(regex.fullmatch(r.envelope().record.message_pattern, text))
...     for r, text in (
...         (MSGSPEC_KEYWORD, "Unexpected keyword argument 'use_beam_search'"),
...         (
...             HARMONY_VOCAB,
...             "error downloading or loading vocab file: failed to download or load vocab file",
...         ),
...         (TOKENIZER_JSON, "expected value at line 1 column 1"),
...         (TOKENIZER_JSON_CUT, "EOF while parsing a string at line 1 column 48"),
...     )
... ]
[True, True, True, True]
>>> bool(
...     regex.fullmatch(
...         TOKENIZER_JSON.envelope().record.message_pattern,
...         "data did not match any variant of untagged enum ModelWrapper at line 1 column 3",
...     )
... )
False
>>> len(RECORDS)
4
"""

from __future__ import annotations

from functools import partial

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = [
    "HARMONY_VOCAB",
    "MSGSPEC_KEYWORD",
    "RECORDS",
    "TOKENIZER_JSON",
    "TOKENIZER_JSON_CUT",
]

#: The msgspec commit ``stack/SOURCES.json`` mines (its mirror has no 0.23.0 tag).
MSGSPEC_COMMIT = "3b2543b838a01dfac23e0b8d8746ebb273254e2d"

MSGSPEC_KEYWORD = Curated(
    repo="jcrist/msgspec",
    path="src/msgspec/_core.c",
    line=7688,
    revision=MSGSPEC_COMMIT,
    error_class="TypeError",
    template="Unexpected keyword argument '{name}'",
    error_type="validation",
    documentation="A msgspec Struct was built with a keyword it does not define. vLLM's"
    " SamplingParams (and its messages between the API server and the engine core) are"
    " msgspec Structs, so code written for another vLLM release that passes a keyword"
    " the installed one removed or renamed gets this wording instead of Python's 'got an"
    " unexpected keyword argument'. Most often a wrapper (FastChat's vllm_worker,"
    " LLaMA-Factory, an RL framework) older or newer than the vLLM it runs on: for example"
    " use_beam_search was removed from SamplingParams in vLLM 0.6.3 (beam search moved to"
    " LLM.beam_search).",
    solutions=(
        "Install the vLLM release the wrapper supports (its requirements name it), for"
        ' example pip install "vllm==0.6.2" for a wrapper that still passes'
        " use_beam_search, or upgrade the wrapper to a release written for the installed"
        " vLLM (pip install -U fschat / llamafactory / the framework)",
        "In your own code, drop or rename the keyword the message names: list what the"
        " installed release accepts with python -c 'import vllm, inspect;"
        " print(inspect.signature(vllm.SamplingParams))'",
    ),
    example_fix="# before (code written for vLLM < 0.6.3)\n"
    "SamplingParams(n=4, use_beam_search=True, max_tokens=64)\n"
    "# after\nSamplingParams(n=4, max_tokens=64)",
    trigger="Building vLLM's SamplingParams (a msgspec Struct) with a keyword the installed"
    " release does not have.",
    prevention=("Pin the engine release a wrapper or framework documents",),
    # Raised in msgspec's C constructor: no traceback frame shows the site.
    tags=("msgspec", "vllm", HIDDEN_SITE_TAG),
    references=(
        "https://github.com/lm-sys/FastChat/issues/3600",
        "https://github.com/hiyouga/LlamaFactory/issues/5966",
    ),
)

HARMONY_VOCAB = Curated(
    repo="openai/harmony",
    path="src/tiktoken_ext/public_encodings.rs",
    line=29,
    revision="v0.0.4",
    error_class="openai_harmony.HarmonyError",
    template="error downloading or loading vocab file: {reason}",
    documentation="openai-harmony, which vLLM and SGLang use to render and parse gpt-oss"
    " conversations, loads the o200k_base.tiktoken vocabulary when the engine starts or"
    " the first gpt-oss request arrives. Unless TIKTOKEN_ENCODINGS_BASE names a folder"
    " holding it, it downloads the file (cached in the system's temporary folder under"
    " tiktoken-rs-cache, or TIKTOKEN_RS_CACHE_DIR): on a machine with no internet access,"
    " behind a proxy, or with a TLS-inspecting firewall the download fails. The model's"
    " own files are not at fault.",
    solutions=(
        "On a machine with internet access, download o200k_base.tiktoken (and"
        " cl100k_base.tiktoken) from the public tiktoken encodings, copy them into a folder"
        " on the server, and start the engine with TIKTOKEN_ENCODINGS_BASE=/path/to/folder",
        "Or let the download through: set HTTPS_PROXY for the engine's process, or copy a"
        " working machine's tiktoken-rs-cache folder and point TIKTOKEN_RS_CACHE_DIR at it",
    ),
    example_fix="mkdir -p /models/tiktoken  # copy o200k_base.tiktoken and cl100k_base.tiktoken"
    " here\nTIKTOKEN_ENCODINGS_BASE=/models/tiktoken vllm serve openai/gpt-oss-20b",
    trigger="Serving gpt-oss offline, or where the vocabulary download is blocked.",
    prevention=(
        "Ship the .tiktoken files with an offline deployment and set TIKTOKEN_ENCODINGS_BASE",
    ),
    tags=("openai-harmony", "gpt-oss", "offline", HIDDEN_SITE_TAG),
    references=(
        "https://github.com/openai/harmony/issues/46",
        "https://github.com/sgl-project/sglang/issues/18074",
    ),
)

_TOKENIZER_JSON_DOC = (
    "The tokenizers library read the model's tokenizer.json and it is not valid JSON (the"
    " words are serde_json's, raised through Tokenizer.from_file). "
)
_TOKENIZER_JSON_FIX = (
    "Download the tokenizer again: huggingface-cli download <repo id> tokenizer.json"
    " --local-dir <model dir> --force-download (check free space with df -h first)"
)
#: Both read from tokenizers' binding at the tag whose file stack/SOURCES.json mines.
_tokenizer_json = partial(
    Curated,
    repo="huggingface/tokenizers",
    path="bindings/python/src/tokenizer.rs",
    line=746,
    revision="v0.23.1",
    error_class="Exception",
    error_type="data",
    example_fix="# before: cloned without git-lfs\ngit clone https://huggingface.co/<repo id>\n"
    "# after\nhuggingface-cli download <repo id> --local-dir <model dir>",
    prevention=("Download models with huggingface-cli download, or clone with git-lfs installed",),
    tags=("tokenizer", HIDDEN_SITE_TAG),
    references=(
        "https://github.com/LianjiaTech/BELLE/issues/48",
        "https://github.com/LianjiaTech/BELLE/issues/114",
    ),
)

TOKENIZER_JSON = _tokenizer_json(
    template="expected value at line {line} column {column}",
    pattern=r"expected value at line (\d+) column (\d+)",
    documentation=_TOKENIZER_JSON_DOC + "At line 1 column 1 the file does not start as JSON"
    " at all: a git-lfs pointer (a small text file starting 'version https://git-lfs') left"
    " by a git clone without git-lfs, or an HTML error page saved in its place. The"
    " tokenizers version is not at fault.",
    solutions=(
        "Look at the file: head -c 200 <model dir>/tokenizer.json (a pointer starts"
        " 'version https://git-lfs'); fetch the real file with git lfs install && git lfs"
        " pull in the model directory",
        _TOKENIZER_JSON_FIX,
    ),
    trigger="Loading a tokenizer.json that is a git-lfs pointer or an HTML page.",
)

TOKENIZER_JSON_CUT = _tokenizer_json(
    template="EOF while parsing {what} at line {line} column {column}",
    pattern=r"EOF while parsing (.+?) at line (\d+) column (\d+)",
    documentation=_TOKENIZER_JSON_DOC + "It stops before its end: a download cut short, a"
    " disk that filled up while it was written, or a copy interrupted. The tokenizers"
    " version is not at fault.",
    solutions=(
        _TOKENIZER_JSON_FIX,
        "Compare the file's size with the model page's (ls -l <model dir>/tokenizer.json);"
        " with git, fetch it again with git lfs pull",
    ),
    trigger="Loading a tokenizer.json that was cut short.",
)

RECORDS: tuple[Curated, ...] = (
    MSGSPEC_KEYWORD,
    HARMONY_VOCAB,
    TOKENIZER_JSON,
    TOKENIZER_JSON_CUT,
)
