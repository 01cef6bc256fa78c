"""Messages an exception class composes itself, and raises through a helper (errcat issue 26).

triton's ``OutOfResources(required, limit, name)`` builds its message in
``__str__`` from what ``__init__`` stored, and its raise sites hand the built
exception to a nested ``raise_(err)``. The miner binds the raise's literal
arguments into the class's message and keeps the helper call's line.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from errcat.mine import EXISTING_OBJECT, mine_source
from errcat.mine.raisers import _Helper, helper_argument, raising_helpers
from errcat.patterns import compile_pattern, template_to_pattern

TRITON_LIKE = """
class TritonError(Exception):
    pass

class OutOfResources(TritonError):
    def __init__(self, required, limit, name):
        self.required = required
        self.limit = limit
        self.name = name

    def __str__(self) -> str:
        return f"out of resource: {self.name}, Required: {self.required}, Hardware limit: {self.limit}. Reducing block sizes may help."

class Kernel:
    def _init_handles(self, device):
        def raise_(err):
            self._run = err
            raise err

        max_shared = device.max_shared
        if self.shared > max_shared:
            raise_(OutOfResources(self.shared, max_shared, "shared memory"))
        if self.warps > device.threads:
            raise_(OutOfResources(self.warps, device.threads, name="threads"))
"""  # noqa: E501


def test_triton_out_of_resources_is_mined_at_the_helper_call() -> None:
    mined = mine_source(TRITON_LIKE, module="triton.compiler")
    assert [(line, cls) for line, cls, _ in mined] == [
        (22, "triton.compiler.OutOfResources"),
        (24, "triton.compiler.OutOfResources"),
    ]
    shared, threads = (template for _, _, template in mined)
    assert shared == (
        "out of resource: shared memory, Required: {self.shared}, "
        "Hardware limit: {max_shared}. Reducing block sizes may help."
    )
    assert threads.startswith("out of resource: threads, Required: {self.warps}")
    pattern = compile_pattern(template_to_pattern(shared))
    message = (
        "out of resource: shared memory, Required: 196608, Hardware limit: 65536. "
        "Reducing block sizes may help."
    )
    assert pattern.full.fullmatch(message)


@pytest.mark.parametrize(
    ("cls_source", "expected"),
    [
        (  # self.message composed, then given to the base
            """
            class E(Exception):
                def __init__(self, what, n):
                    self.message = f"cannot load {what}: {n} shards missing"
                    super().__init__(self.message)
            """,
            "cannot load tokenizer: {count} shards missing",
        ),
        (  # composed straight into the base's __init__
            """
            class E(Exception):
                def __init__(self, what, n):
                    super().__init__(f"cannot load {what}: {n} shards missing")
            """,
            "cannot load tokenizer: {count} shards missing",
        ),
        (  # self.msg composed, __str__ returns it
            """
            class E(Exception):
                def __init__(self, what, n):
                    self.msg = "cannot load %s: %d shards missing" % (what, n)
                def __str__(self):
                    return self.msg
            """,
            "cannot load tokenizer: {count} shards missing",
        ),
        (  # keyword arguments at the raise, a default left in
            """
            class E(Exception):
                def __init__(self, n, what="model"):
                    self.message = f"cannot load {what}: {n} shards missing"
                def __str__(self):
                    return self.message
            """,
            "cannot load model: {count} shards missing",
        ),
    ],
)
def test_composed_messages(cls_source: str, expected: str) -> None:
    uses = "raise E(n=count)" if "what=" in cls_source else "raise E('tokenizer', count)"
    source = textwrap.dedent(cls_source) + f"\ndef load(count):\n    {uses}\n"
    assert [t for _, _, t in mine_source(source)] == [expected]


def test_helpers_that_do_not_raise_their_argument_are_not_sites() -> None:
    source = """
def log(err):
    print(err)

def rewrap(err):
    err = RuntimeError(str(err))
    raise err

def f(x):
    log(ValueError(f"logged only {x}"))
    rewrap(ValueError(f"rewrapped {x}"))
"""
    assert [line for line, _, _ in mine_source(source) if line >= 10] == []


def test_imported_name_is_not_the_modules_helper() -> None:
    source = """
from other import raise_

def raise_local(err):
    raise err

def f(x):
    raise_(ValueError(f"imported helper {x}"))
    raise_local(ValueError(f"local helper {x}"))
"""
    assert mine_source(source) == [(9, "ValueError", "local helper {x}")]


def test_method_helper_called_on_self() -> None:
    source = """
class Loader:
    def _fail(self, exc, note=""):
        self.failed = True
        raise exc

    def load(self, path):
        self._fail(FileNotFoundError(f"no checkpoint at {path}"))
"""
    assert mine_source(source, module="m") == [(8, "FileNotFoundError", "no checkpoint at {path}")]


def test_raising_helpers_ambiguous_names_dropped() -> None:
    tree = ast.parse(
        "def h(a, b):\n    raise a\n\nclass K:\n    def h(self, a, b):\n        raise b\n"
    )
    assert "h" not in raising_helpers(tree)
    helper = _Helper("err", 1, False)
    call = ast.parse("h(*xs, ValueError('x'))", mode="eval").body
    assert isinstance(call, ast.Call)
    assert helper_argument(call, helper) is None  # its position is unknown after *xs


def test_the_helpers_own_raise_stays_skipped() -> None:
    from errcat.mine.scan import scan_source

    scan = scan_source(TRITON_LIKE, module="m")
    assert [s.skip for s in scan.sites if s.line == 18] == [EXISTING_OBJECT]


# --------------------------------------------------------------------------
# Properties: literals bound at the raise, and the class's real message
# --------------------------------------------------------------------------

_WORDS = st.text(alphabet="abcdefghij klmnop:,.-=()[]", min_size=1, max_size=10)
_LITERAL = st.text(alphabet="abcxyz _-./", min_size=1, max_size=12).map(str.strip).filter(bool)
_VALUE = st.one_of(
    st.integers(-(10**6), 10**6),
    st.text(alphabet="abcxyz._-/", min_size=1, max_size=8),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
_FORMS = st.sampled_from(["str_attrs", "message_super", "super_fstring", "msg_str"])


def _class_source(form: str, texts: list[str], nparams: int) -> str:
    """A class ``E(p0, ..., pn)`` that composes ``texts[0] {p0} texts[1] {p1} ... texts[n]``."""
    params = [f"p{i}" for i in range(nparams)]
    attr = form == "str_attrs"
    body = "".join(
        text.replace("{", "{{").replace("}", "}}").replace('"', "'")
        + (f"{{self.{p}}}" if attr else f"{{{p}}}")
        for text, p in zip(texts, params, strict=False)
    ) + texts[-1].replace("{", "{{").replace("}", "}}").replace('"', "'")
    head = f"class E(Exception):\n    def __init__(self, {', '.join(params)}):\n"
    if form == "str_attrs":
        stores = "".join(f"        self.{p} = {p}\n" for p in params)
        return head + stores + f'    def __str__(self):\n        return f"{body}"\n'
    if form == "message_super":
        return head + f'        self.message = f"{body}"\n        super().__init__(self.message)\n'
    if form == "super_fstring":
        return head + f'        super().__init__(f"{body}")\n'
    return head + f'        self.msg = f"{body}"\n    def __str__(self):\n        return self.msg\n'


@settings(max_examples=120, deadline=None)
@given(
    form=_FORMS,
    texts=st.lists(_WORDS, min_size=3, max_size=4),
    literal=_LITERAL,
    where=st.integers(0, 2),
    values=st.lists(_VALUE, min_size=3, max_size=3),
    helper=st.booleans(),
)
def test_bound_literal_in_template_and_pattern_matches_real_message(
    *, form: str, texts: list[str], literal: str, where: int, values: list[Any], helper: bool
) -> None:
    nparams = len(texts) - 1
    where %= nparams
    assume(any(c.isalpha() for c in "".join(texts)))
    cls = _class_source(form, texts, nparams)
    args = [repr(literal) if i == where else f"v{i}" for i in range(nparams)]
    params = ", ".join(f"v{i}" for i in range(nparams))
    call = f"E({', '.join(args)})"
    if helper:
        raiser = f"def raiser({params}):\n    def fail(err):\n        raise err\n    fail({call})\n"
    else:
        raiser = f"def raiser({params}):\n    raise {call}\n"
    source = cls + "\n" + raiser
    mined = mine_source(source)
    assume(mined)  # a message with no word of its own is left out by design
    [(_line, name, template)] = mined
    assert name == "module.E"
    assert literal in template
    namespace: dict[str, Any] = {}
    exec(compile(source, "<generated>", "exec"), namespace)  # generated test code
    given_values = [literal if i == where else values[i] for i in range(nparams)]
    with pytest.raises(Exception, match=r"(?s).*") as info:
        namespace["raiser"](*given_values)
    message = str(info.value).strip()
    compiled = compile_pattern(template_to_pattern(template))
    assert compiled.full.fullmatch(message), (template, message)
