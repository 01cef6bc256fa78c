"""A shape several projects of the catalog raise is generic: only site evidence makes it an answer.

See :mod:`errcat.matcher.spread` and :func:`errcat.matcher.generic.generic_shape`:
the projects that raise a hit's literal skeleton are counted over the whole
catalog, whatever store (part) holds them, and a generic hit without a frame
in the record's file, or its class named with its module, stays below the
confidence threshold.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat import background
from errcat.catalog import Catalog
from errcat.matcher import CONFIDENCE_THRESHOLD, match_all, match_error
from errcat.matcher.generic import spread_bits as _spread_bits
from errcat.matcher.text_evidence import _MIN_BITS
from errcat.models import RecordEnvelope
from errcat.patterns import literal_fragments, template_to_pattern
from errcat.store import MemoryStore

#: Words error messages use everywhere: a lead of a few of them carries few bits.
COMMON = ["Unsupported", "Invalid", "Unknown", "value", "type", "mode", "for", "the", "not"]


def _record(n: int, template: str, repo: str, cls: str = "ValueError") -> RecordEnvelope:
    name = repo.rsplit("/", 1)[-1]
    path = f"{name}/core.py"
    return make_envelope(
        id=f"{n:016x}",
        slug=f"record-{n}",
        repo=repo,
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        errorClass=cls,
        filePath=path,
        lineNumber=40,
        sourceCodeStart=22,
        sourceCodeEnd=58,
        githubUrl=f"https://github.com/{repo}/blob/{'0' * 40}/{path}#L22-L58",
    )


def _catalog(template: str, repos: int, split: bool) -> Catalog:
    """``template`` raised by ``repos`` projects, in one store or one store each."""
    envelopes = [_record(n, template, f"org{n}/proj{n}") for n in range(repos)]
    if split:
        return Catalog.of_stores([MemoryStore([e]) for e in envelopes])
    return Catalog(envelopes)


def _traceback(repo_index: int, line: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 12, in <module>\n'
        "    run()\n"
        f'  File "/venv/lib/python3.12/site-packages/proj{repo_index}/core.py", line 40, in check\n'
        "    raise ValueError(message)\n"
        f"{line}\n"
    )


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    lead=st.lists(st.sampled_from(COMMON), min_size=1, max_size=3).map(" ".join),
    value=st.from_regex(r"[a-z][a-z0-9_]{2,12}", fullmatch=True),
    repos=st.integers(min_value=2, max_value=5),
    split=st.booleans(),
    site=st.integers(min_value=0, max_value=4),
)
def test_a_shape_several_projects_raise_needs_a_frame(
    lead: str, value: str, repos: int, split: bool, site: int
) -> None:
    template = f"{lead}: {{what}}"
    fragments = literal_fragments(template_to_pattern(template))
    # Generic by the catalog's spread (not by a leading subject: the lead is literal),
    # with words enough not to be capped as next to none (_MIN_BITS).
    assume(_MIN_BITS <= background.information(fragments) < _spread_bits(repos))
    assume(value not in lead.lower().split())
    catalog = _catalog(template, repos, split)
    line = f"ValueError: {lead}: {value}"
    assert match_error(line, catalog=catalog) is None
    top = match_all(line, catalog=catalog)
    assert top and top[0].confidence < CONFIDENCE_THRESHOLD
    assert any("shape many projects raise" in r for r in top[0].reasons)
    site %= repos
    m = match_error(_traceback(site, line), catalog=catalog)
    assert m is not None and m.summary.repo == f"org{site}/proj{site}"


@pytest.mark.parametrize("split", [False, True])
def test_the_spread_is_counted_over_every_store(split: bool) -> None:
    # Three projects' "Unknown scheduler policy: {p}" (26 bits of words, more than a
    # lone project's predicate needs, not the interpreter's) is a phrase any project
    # writes.
    template = "Unknown scheduler policy: {policy}"
    line = "ValueError: Unknown scheduler policy: lifo"
    top = match_all(line, catalog=_catalog(template, 3, split))
    assert top and not top[0].confident
    assert any("3 projects of the catalog raise it" in r for r in top[0].reasons)
    # One project's is its own.
    m = match_error(line, catalog=_catalog(template, 1, split))
    assert m is not None and m.confident


def test_two_projects_copying_a_distinctive_message_are_no_generic_shape() -> None:
    # sglang took vllm's "Cannot find the config file for {q}": two places, one error;
    # its words (30 bits) say which error it is, not a shape many projects raise. Which
    # project's code printed it a bare line does not say (errcat.matcher.site_prior):
    # each holds half the confidence; a frame in one project's file answers with it.
    catalog = _catalog("Cannot find the config file for {quantization}", 2, split=True)
    line = "ValueError: Cannot find the config file for awq"
    assert match_error(line, catalog=catalog) is None
    top = match_all(line, catalog=catalog)[0]
    assert not any("shape many projects raise" in r for r in top.reasons)
    assert any("2 projects raise this message" in r for r in top.reasons)
    assert top.confidence >= 0.4
    m = match_error(_traceback(1, line), catalog=catalog)
    assert m is not None and m.confident and m.summary.id == f"{1:016x}"


def test_a_project_s_copy_of_a_call_error_is_the_interpreter_s_without_a_frame() -> None:
    # torch's Module.__init__ raises the interpreter's own words; another project's
    # "Config.__init__() got an unexpected keyword argument" is the interpreter's.
    template = "{type(self).__name__}.__init__() got an unexpected keyword argument '{name}'"
    catalog = Catalog([_record(0, template, "org0/proj0", cls="TypeError")])
    line = "TypeError: EmptyConfig.__init__() got an unexpected keyword argument 'z'"
    assert match_error(line, catalog=catalog) is None
    reasons = match_all(line, catalog=catalog)[0].reasons
    assert any("the interpreter prints this message" in r for r in reasons)
    m = match_error(
        _traceback(0, line).replace("ValueError(message)", "TypeError(x)"), catalog=catalog
    )
    assert m is not None and m.summary.id == f"{0:016x}"


def test_a_class_placeholder_holds_a_class() -> None:
    # "{type(other)}" prints "<class 'sympy.core.expr.Expr'>": the interpreter's
    # "unsupported operand type(s) for *: 'Expr' and 'One'" is not this record's.
    template = "unsupported operand type(s) for *: {type(self)} and {type(other)}"
    catalog = Catalog([_record(0, template, "org0/proj0", cls="TypeError")])
    line = "TypeError: unsupported operand type(s) for *: 'Expr' and 'One'"
    assert match_error(line, catalog=catalog) is None
    assert all(not m.exact for m in match_all(line, catalog=catalog))  # a fuzzy hint at most
    own = "TypeError: unsupported operand type(s) for *: <class 'a.Expr'> and <class 'int'>"
    m = match_error(own, catalog=catalog)
    assert m is not None and m.summary.id == f"{0:016x}"


def test_a_subject_filled_into_a_shape_others_raise_shares_their_spread() -> None:
    # transformers' "alpha must be positive" adds one subject word to the
    # "{name} must be positive" two other projects raise: networkx's own
    # "alpha must be positive" is no more transformers' than theirs.
    catalog = Catalog(
        [
            _record(0, "alpha must be positive", "org0/proj0"),
            _record(1, "{name} must be positive", "org1/proj1"),
            _record(2, "{name} must be positive", "org2/proj2"),
        ]
    )
    line = "ValueError: alpha must be positive"
    assert match_error(line, catalog=catalog) is None
    top = match_all(line, catalog=catalog)
    assert top[0].summary.id == f"{0:016x}"
    assert any("3 projects of the catalog raise it" in r for r in top[0].reasons)
    m = match_error(_traceback(0, line), catalog=catalog)
    assert m is not None and m.summary.id == f"{0:016x}"
    # Words that say much more than the shape are the record's own.
    own = Catalog([*catalog, _record(3, "alpha of the sinkhorn solver must be positive", "o3/p3")])
    m = match_error("ValueError: alpha of the sinkhorn solver must be positive", catalog=own)
    assert m is not None and m.summary.id == f"{3:016x}"


@pytest.mark.parametrize("lead", ["[Bug]: proj0 backend ", "proj0 serve failed: ", ""])
def test_naming_the_project_does_not_lift_a_generic_shape(lead: str) -> None:
    # A project built on proj0 (vllm-omni on vllm) names it in its reports: its own
    # "create_model_config() should not be called when ..." is not proj0's
    # "{self} should not be called", however sure the name makes the model.
    # Fillers make the words as common as they are in a real catalog (sglang's and
    # vllm's hold many "... should not be called ..." messages).
    fillers = [
        _record(10 + n, f"{{x}} should not be called in stage {n}", "org0/proj0") for n in range(50)
    ]
    own = _record(0, "{self} should not be called", "org0/proj0", "RuntimeError")
    catalog = Catalog([own, *fillers])
    line = (
        f"{lead}RuntimeError: create_model_config() should not be called when "
        "stage_configs_path is set."
    )
    assert match_error(line, catalog=catalog) is None
    assert match_all(line, catalog=catalog)[0].summary.id == f"{0:016x}"
