r"""transformers' tokenizer refusing an attribute: a caller written for another transformers.

Since transformers 4.34 a tokenizer answers unknown attribute names through
``__getattr__`` in ``tokenization_utils_base.py`` (special tokens and their ids
resolve there) and raises ``AttributeError: <TokenizerClass> has no attribute
<name>`` for the rest: no quotes and no ``object``, unlike the interpreter's own
message. Transformers 5 removed attributes that engines and models' remote code
still read (``all_special_tokens_extended``, ``additional_special_tokens`` on some
tokenizers) and loads many tokenizers as ``TokenizersBackend``, so an engine release
written for transformers 4 fails right after loading the tokenizer. The miner
drops this message as too vague (its literal text is three common words), so this
record is written by hand and keeps to tokenizer classes: the class name holds
``Tokenizer``.

Sources: ``src/transformers/tokenization_utils_base.py`` (``__getattr__``) at the
v5.3.0 tag, the line a traceback of that release shows. Thread learned from
(even-numbered, in benchmarks/data/study_stack.jsonl): QwenLM/Qwen3-VL#2058, where a
collaborator answered that vLLM did not support transformers 5 yet and to install
4.57.6.

>>> import regex
>>> pattern = TOKENIZER_ATTRIBUTE.envelope().record.message_pattern
>>> bool(regex.fullmatch(pattern, "Qwen2Tokenizer has no attribute all_special_tokens_extended"))
True
>>> bool(regex.fullmatch(pattern, "TokenizersBackend has no attribute all_special_tokens_extended"))
True
>>> bool(regex.fullmatch(pattern, "Config has no attribute hidden_size"))
False
>>> len(RECORDS)
1
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["RECORDS", "TOKENIZER_ATTRIBUTE"]

TOKENIZER_ATTRIBUTE = Curated(
    repo="huggingface/transformers",
    path="src/transformers/tokenization_utils_base.py",
    line=1293,
    revision="v5.3.0",
    error_class="AttributeError",
    template="{model}Tokenizer{kind} has no attribute {key}",
    pattern=r"(\w*)Tokenizer(\w*) has no attribute (\w+)",
    error_type="version",
    documentation="Code asked the tokenizer for an attribute it does not have. Almost always"
    " the installed transformers and its caller disagree: transformers 5 removed tokenizer"
    " attributes that engine releases written for transformers 4 read right after loading"
    " the tokenizer (vLLM's tokenizer cache reads all_special_tokens_extended), and that"
    " models' remote processing code reads (additional_special_tokens); it also loads"
    " many tokenizers as the generic TokenizersBackend class. With transformers 4 the same"
    " message means the caller expects a newer transformers, or a slow tokenizer was"
    " loaded where the fast one has the attribute.",
    solutions=(
        "Install the transformers the engine release supports: for engines that predate"
        ' transformers 5, pip install "transformers<5" (for example transformers==4.57.6)',
        "Or upgrade the engine to a release that supports transformers 5 (pip install -U"
        " vllm, or sglang), and check pip show transformers afterwards",
        "If the attribute is read by the model's own remote code (its processing_*.py), keep"
        " transformers<5 until the model repository is updated for transformers 5",
    ),
    example_fix="# before: transformers 5.3.0 with a vLLM release written for 4.x\n"
    "pip show transformers  # Version: 5.3.0\n# after\n"
    'pip install "transformers==4.57.6"',
    trigger="Loading a tokenizer or processor with a transformers newer (or older) than the"
    " caller was written for.",
    prevention=(
        "Let the engine's own requirements pick transformers (pip install vllm, then do not"
        " upgrade transformers separately)",
    ),
    tags=("tokenizer", "version-mismatch"),
    references=("https://github.com/QwenLM/Qwen3-VL/issues/2058",),
)

RECORDS: tuple[Curated, ...] = (TOKENIZER_ATTRIBUTE,)
