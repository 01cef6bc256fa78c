from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errcat import background

fragment = st.text(alphabet="abcdefghij klm'{}():,.-_0123", min_size=0, max_size=40)


def test_the_model_loads_once_and_holds_both_tables() -> None:
    model = background.load()
    assert model is background.load()
    assert model.templates > 10_000
    assert len(model.words) > 1_000 and len(model.shapes) > 100


@given(st.lists(fragment, max_size=4))
def test_shape_key_ignores_case_spacing_and_punctuation(fragments: list[str]) -> None:
    key = background.shape_key(fragments)
    assert key == key.lower() and "  " not in key
    assert background.shape_key([f.upper() + " ." for f in fragments]) == key


@given(st.lists(fragment, max_size=4), fragment)
def test_more_words_never_carry_less_information(fragments: list[str], more: str) -> None:
    assert background.information([*fragments, more]) >= background.information(fragments)


def test_common_words_carry_less_evidence_than_rare_ones() -> None:
    common = background.information(["invalid value for "])
    rare = background.information(["speculative draft backend is not validated for "])
    assert common < rare
    # The same wording raised in many projects is common; a project's own is not.
    assert background.projects(["module ", " has no attribute "]) >= 3
    assert background.projects(["DeepEP v2 MoE is not validated as a draft backend"]) == 1


def test_wordings_raised_by_c_code_are_known() -> None:
    assert background.builtin_wording("'NoneType' object is not subscriptable") == (
        "object is not subscriptable"
    )
    assert not background.raised_by_builtins(["checkpoint shard ", " is missing"])


def test_c_s_words_are_c_s_only_with_a_class_c_raised_them_with() -> None:
    raised = background.message_raised_by_builtins
    assert raised("list index out of range", "IndexError")
    assert raised("list index out of range")  # a log line without its class
    # A class of pure-Python code: re-raised with C's words, not raised by C.
    assert not raised("list index out of range", "tarfile.ReadError")
    assert background.raised_by_builtins(["list index out of range"], "IndexError")
    assert not background.raised_by_builtins(["list index out of range"], "mypkg.Bad")


def test_the_c_source_s_wordings_are_c_s_as_its_class() -> None:
    # Raised by CPython's C code (Objects/, Python/) though no harvest saw them raised.
    raised = background.message_raised_by_builtins
    assert raised("division by zero", "ZeroDivisionError")
    assert raised("tuple index out of range", "IndexError")
    assert raised("dictionary changed size during iteration", "RuntimeError")
    assert not raised("division by zero", "ValueError")
    assert not raised("Modulo by zero", "ZeroDivisionError")  # sympy's words, not C's
    assert background.c_examples("division by zero") == ("division by zero",)


def test_every_c_wording_has_examples_of_its_own_words() -> None:
    model = background.load()
    # A wording only the C source holds has an example when its format quotes its values.
    assert set(model.builtin_examples) <= set(model.builtin)
    assert len(model.builtin_examples) >= len(model.builtin) // 2
    for wording, examples in model.builtin_examples.items():
        assert 1 <= len(examples) <= 3
        assert all(background.builtin_wording(m) == wording for m in examples)
    # Every class-keyed wording is a wording of the table.
    assert {k.split("\x1f", 1)[1] for k in model.builtin_classes} == set(model.builtin)


callable_names = st.from_regex(
    r"[A-Za-z_][A-Za-z0-9_]{0,10}(\.[A-Za-z_][A-Za-z0-9_]{0,10}){0,2}", fullmatch=True
)


@given(callable_names, st.from_regex(r"[a-z_]{1,10}", fullmatch=True))
def test_the_interpreter_s_call_errors_are_c_s_whatever_callable_they_name(
    name: str, argument: str
) -> None:
    # C names the callable unquoted (``Config.__init__()``): its wording is the same
    # error for any callable, a project's own class's included.
    message = f"{name}() got an unexpected keyword argument '{argument}'"
    assert background.message_raised_by_builtins(message, "TypeError")
    assert not background.message_raised_by_builtins(message, "KeyError")
    origin = background.c_origin(message, ["() got an unexpected keyword argument '", "'"])
    assert origin.raised and origin.printed and origin.examples


def test_a_project_s_own_words_after_a_call_are_not_c_s() -> None:
    message = "Config.__init__() needs a tokenizer when the model has none"
    assert not background.message_raised_by_builtins(message, "TypeError")
    assert background.call_free(message) == "needs a tokenizer when the model has none"


def test_the_shipped_call_error_table_is_the_one_its_examples_give() -> None:
    # Stored when the model is built (no process works it out), it must be what
    # call_wordings gives for the examples as load() joins them: a model rebuilt
    # without it would otherwise answer call errors otherwise.
    model = background.load()
    worked_out = background.call_wordings(model.builtin_examples)
    assert {k: tuple(v) for k, v in worked_out.items()} == model.call_wordings
    assert len(model.call_wordings) > 20


def test_the_call_error_table_keys_the_words_after_the_callable() -> None:
    free = "zqa zqb zqc zqd"
    examples = {"zqf zqa zqb zqc zqd": ("zqf() zqa zqb zqc zqd",), "zqa": ("zqa",)}
    table = background.call_wordings(examples)
    assert table == {free: ["zqf zqa zqb zqc zqd"]}
    # Fewer than three words after the callable say nothing of C.
    assert background.call_wordings({"zqf zqa": ("zqf() zqa",)}) == {}
