"""tokenizers' refusal of a ``tokenizer.json`` it cannot read: a file written by a newer release.

Every engine loads the model's tokenizer through transformers, which hands
``tokenizer.json`` to the ``tokenizers`` library (Rust). Its reader is generated
by serde: when a part of the file (the model, the pre-tokenizer, the normalizer)
has a shape the installed release does not know, serde's untagged-enum reader
gives up with ``data did not match any variant of untagged enum <Wrapper> at line
<n> column <m>`` and the Python binding raises it as a plain ``Exception``. The
usual cause is a tokenizer saved by a newer ``tokenizers`` (new fields in BPE
models, new pre-tokenizers) read by an older one that an engine or framework
pinned; a truncated or hand-edited file gives the same text.

Sources: the wording is serde_derive's (``de.rs``, the untagged-enum fallback), raised
through huggingface/tokenizers' Python binding (``bindings/python/src/tokenizer.rs``,
``Tokenizer::from_file``); the file's lines were not counted at a tag, so the link
points at the file. Thread learned from (even-numbered, in
benchmarks/data/study_stack.jsonl): allenai/open-instruct#738.

>>> import regex
>>> line = "data did not match any variant of untagged enum ModelWrapper at line 1251012 column 3"
>>> bool(regex.fullmatch(UNTAGGED_ENUM.envelope().record.message_pattern, line))
True
>>> pre = "data did not match any variant of untagged enum PyPreTokenizerTypeWrapper at line 40 column 3"
>>> bool(regex.fullmatch(UNTAGGED_ENUM.envelope().record.message_pattern, pre))
True
>>> len(RECORDS)
1
"""

from __future__ import annotations

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = ["RECORDS", "UNTAGGED_ENUM"]

UNTAGGED_ENUM = Curated(
    repo="huggingface/tokenizers",
    path="bindings/python/src/tokenizer.rs",
    line=1,
    revision="v0.22.2",
    error_class="Exception",
    template="data did not match any variant of untagged enum {wrapper} at line {line} column"
    " {column}",
    pattern=r"data did not match any variant of untagged enum (\w+) at line (\d+) column (\d+)",
    error_type="data",
    documentation="The tokenizers library could not read the model's tokenizer.json: a"
    " section of it (named by the wrapper: ModelWrapper for the BPE or Unigram model,"
    " PyPreTokenizerTypeWrapper, PyNormalizerTypeWrapper) has a shape this release does not"
    " know. Nearly always the file was saved by a newer tokenizers than the one installed,"
    " which an older transformers, engine or framework pins; a download cut short or a"
    " hand-edited file gives the same error. The model's weights are not involved.",
    solutions=(
        "Upgrade the tokenizer stack in the environment that loads the model: pip install -U"
        " tokenizers transformers, then check the version loaded: python -c 'import"
        " tokenizers; print(tokenizers.__version__)'",
        "If an engine or framework pins an old transformers, upgrade it too (pip install -U"
        " vllm, or sglang), or load an older revision of the model whose tokenizer.json the"
        " pinned release reads (--tokenizer-revision <commit> in vllm)",
        "If the versions are current, download tokenizer.json again: huggingface-cli download"
        " <repo id> tokenizer.json --local-dir <model dir> --force-download",
    ),
    example_fix="# before\npip show tokenizers  # Version: 0.19.1\n"
    "# data did not match any variant of untagged enum ModelWrapper at line 1251012 column 3\n"
    "# after\npip install -U tokenizers transformers",
    trigger="Loading a tokenizer.json whose format is newer than the installed tokenizers.",
    prevention=(
        "Install the transformers and tokenizers the model card names (or newer) before"
        " loading a newly released model",
    ),
    # Raised in the compiled binding: the loader's Python frames never show the site.
    tags=("tokenizer", HIDDEN_SITE_TAG),
    references=(
        "tokenizers bindings/python/src/tokenizer.rs Tokenizer::from_file (serde's error)",
        "https://github.com/allenai/open-instruct/issues/738",
    ),
)

RECORDS: tuple[Curated, ...] = (UNTAGGED_ENUM,)
