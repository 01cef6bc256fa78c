"""A parameter given a value on one path only is still the caller's value where paths join.

A sentence it is given there (a default message) is printed when the caller passes
none, so it stays one of its values.

flashinfer's ``kda_decode`` sets ``backend`` to its default only when the caller
passed ``None``, then rejects a backend outside its list: the miner used to read
the message as ``got 'cute-dsl'`` (the default), a text that can never be printed
for a rejected backend.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errcat.mine.core import mine_source

_WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=6).map(lambda w: "zq" + w)


def _messages(source: str) -> list[str]:
    return [message for _, _, message in mine_source(source)]


@given(param=_WORD, default=_WORD, lead=_WORD, branch=st.sampled_from(["if", "else", "try"]))
def test_a_parameter_set_on_one_path_stays_a_placeholder(
    param: str, default: str, lead: str, branch: str
) -> None:
    if branch == "if":
        setter = f"    if {param} is None:\n        {param} = {default!r}\n"
    elif branch == "else":
        setter = f"    if {param}:\n        pass\n    else:\n        {param} = {default!r}\n"
    else:
        setter = f"    try:\n        {param} = {default!r}\n    except KeyError:\n        pass\n"
    source = f"def run({param}=None):\n{setter}    raise ValueError(f'{lead} got {{{param}!r}}')\n"
    assert _messages(source) == [f"{lead} got {{{param}!r}}"]


@given(param=_WORD, default=_WORD, lead=_WORD)
def test_a_parameter_set_on_every_path_takes_the_value(param: str, default: str, lead: str) -> None:
    source = (
        f"def run({param}=None):\n"
        f"    if {param} is None:\n        {param} = {default!r}\n"
        f"    else:\n        {param} = {default!r}\n"
        f"    raise ValueError(f'{lead} got {{{param}!r}}')\n"
    )
    assert _messages(source) == [f"{lead} got {default!r}"]


@given(name=_WORD, value=_WORD, lead=_WORD)
def test_a_local_bound_on_one_path_keeps_its_value(name: str, value: str, lead: str) -> None:
    # Not a parameter: the other path never bound it, so the one value is all it can hold.
    source = (
        "def run(flag):\n"
        f"    if flag:\n        {name} = {value!r}\n"
        f"    raise ValueError(f'{lead} got {{{name}}}')\n"
    )
    assert _messages(source) == [f"{lead} got {value}"]


@given(param=_WORD, words=st.lists(_WORD, min_size=3, max_size=6), lead=_WORD)
def test_a_default_message_set_on_one_path_is_kept_beside_the_parameter(
    param: str, words: list[str], lead: str
) -> None:
    # transformers' resolve_trust_remote_code: the caller's message, or a sentence of its own.
    sentence = " ".join(words)
    source = (
        f"def run({param}=None):\n"
        f"    if {param} is None:\n        {param} = {sentence!r}\n"
        f"    raise ValueError(f'{{{param}}} {lead}')\n"
    )
    assert sorted(_messages(source)) == sorted([f"{sentence} {lead}", f"{{{param}}} {lead}"])
