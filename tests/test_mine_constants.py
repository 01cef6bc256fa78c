"""A message kept in a constant is read where it is raised or logged (errcat.mine.names).

vllm keeps messages in module constants, often annotated
(``_TOKENIZE_OVERRIDE_WARNING: Final[str] = (...)``, then
``logger.warning_once(_TOKENIZE_OVERRIDE_WARNING)``; ``LONG_WAIT_TIME_LOG_MSG = ...``
then ``logger.info(LONG_WAIT_TIME_LOG_MSG, interval)``), sglang in class
constants (``_ERR = (...)``, then ``raise NotImplementedError(cls._ERR)``).
Each such use is a site whose message is the constant's text, its ``%`` or
``{}`` fields filled from the call as anywhere else.
"""

from __future__ import annotations

from pathlib import Path

import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.mine import mine_paths
from errcat.models import ErrorRecord
from errcat.tags import LOGGED_TAG

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
constant_names = st.from_regex(r"_?[A-Z][A-Z0-9]{1,6}(_[A-Z0-9]{1,5}){0,2}", fullmatch=True)
#: How a module constant is bound: plain, or annotated as vllm writes it.
bindings = st.sampled_from(
    ["{name} = {text}", "{name}: str = {text}", "{name}: Final[str] = {text}"]
)


def _mine(tmp_path: Path, source: str) -> tuple[ErrorRecord, ...]:
    root = tmp_path / "pkg"
    root.mkdir(exist_ok=True)
    (root / "mod.py").write_text(source)
    return mine_paths([root], repo="o/pkg", sha="0" * 40, path_prefix="pkg").records


SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(
    name=constant_names,
    binding=bindings,
    lead=st.lists(words, min_size=3, max_size=6).map(" ".join),
    use=st.sampled_from(["raise", "log", "log %", "format"]),
)
def test_a_module_constant_is_read_where_it_is_used(
    tmp_path: Path, name: str, binding: str, lead: str, use: str
) -> None:
    text = lead.capitalize() + (" in %d seconds." if use == "log %" else "")
    text += " for {modality!r}." if use == "format" else ""
    call = {
        "raise": f"raise ValueError({name})",
        "log": f"logger.warning({name})",
        "log %": f"logger.error({name}, interval)",
        "format": f"raise RuntimeError({name}.format(modality=kind))",
    }[use]
    source = (
        "import logging\nfrom typing import Final\n\nlogger = logging.getLogger(__name__)\n"
        + binding.format(name=name, text=repr(text))
        + f"\n\n\ndef check(interval, kind):\n    {call}\n"
    )
    (record,) = _mine(tmp_path, source)
    expected = {
        "log %": text.replace("%d", "{interval}"),
        "format": text.replace("{modality!r}", "{kind!r}"),
    }.get(use, text)
    assert record.error_message == expected
    assert (LOGGED_TAG in record.tags) == use.startswith("log")
    # The record's pattern reads the message as it is printed.
    printed = text.replace("%d", "600").replace("{modality!r}", "'image'")
    assert regex.fullmatch(record.message_pattern, printed)


@SETTINGS
@given(
    name=constant_names,
    lead=st.lists(words, min_size=3, max_size=6).map(" ".join),
    receiver=st.sampled_from(["self", "cls", "Quant"]),
    owner=st.sampled_from(["Quant", "Child"]),
)
def test_a_class_constant_is_read_through_self_cls_or_the_class(
    tmp_path: Path, name: str, lead: str, receiver: str, owner: str
) -> None:
    text = lead.capitalize() + "."
    source = (
        f"class Quant:\n    {name} = (\n        {text[:5]!r}\n        {text[5:]!r}\n    )\n\n\n"
        "class Child(Quant):\n    pass\n\n\n"
        # a subclass of the module (through another) reads its base's constant too
        f"class User({owner}):\n    def use(self, cls):\n"
        f"        raise NotImplementedError({receiver}.{name})\n"
    )
    (record,) = _mine(tmp_path, source)
    assert record.error_message == text


def test_a_constant_a_method_or_a_subclass_rebinds_is_not_taken_as_its_text(
    tmp_path: Path,
) -> None:
    source = """
class Base:
    MSG = "base text that a subclass replaces"
    OWN = "own text the instance replaces"

    def check(self):
        raise ValueError(self.MSG)

    def other(self):
        self.OWN = "set at run time"
        raise ValueError(self.OWN)


class Sub(Base):
    MSG = "the subclass's own text"
"""
    messages = " ".join(r.error_message for r in _mine(tmp_path, source))
    # Which text is raised is known only at run time: neither is taken as the message.
    assert "base text" not in messages and "own text" not in messages


def test_lower_case_class_attributes_are_not_constants(tmp_path: Path) -> None:
    source = """
class Loader:
    name = "a name a subclass elsewhere may set"

    def check(self):
        raise ValueError(self.name)
"""
    assert "a name" not in " ".join(r.error_message for r in _mine(tmp_path, source))
