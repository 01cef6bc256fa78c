"""Tests of the advice the miner writes from the code: guards, options, conditions, honesty."""

from __future__ import annotations

import ast
import json
import keyword
import re
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errcat.advice import Advice
from errcat.mine import mine_paths, reanchor, run
from errcat.mine.cli import add_arguments
from errcat.mine.conditions import Reader, Ref, negate, parse_test
from errcat.mine.facts import _Def, _Option
from errcat.mine.options import OptionIndex, collect_options
from errcat.mine.ways import ways_out
from errcat.models import GENERATED_TAG, ErrorRecord

WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)

CONFIG = """
from typing import Annotated, Literal, Optional
A = Annotated

class Arg:
    def __init__(self, **kw): ...

class Spec:
    speculative_algorithm: A[Optional[str], "Speculative algorithm, e.g. EAGLE or NGRAM."] = None
    speculative_moe_a2a_backend: A[
        Optional[str], Arg(help="Draft A2A backend.", choices=["none", "deepep", "deepep_v2"])
    ] = None
    internal_only: A[int, Arg(no_cli=True, help="not a flag")] = 0

class Exec:
    moe_a2a_backend: A[Literal["none", "deepep", "deepep_v2"], "Backend for MoE A2A."] = "none"
"""

HOOK = '''
from pkg.spec import SpeculativeAlgorithm

def validate_draft(server_args):
    """Reject an explicit or inherited DeepEP v2 draft backend.

    More text here.
    """
    view = resolved_view(server_args)
    draft_backend = view.speculative_moe_a2a_backend
    if draft_backend is None and view.speculative_algorithm:
        algorithm = SpeculativeAlgorithm.from_string(view.speculative_algorithm)
        if not algorithm.is_ngram():
            draft_backend = view.moe_a2a_backend
    if draft_backend == "deepep_v2":
        raise ValueError(
            "DeepEP v2 MoE is not validated as a speculative draft backend. "
            "Select another --speculative-moe-a2a-backend."
        )
'''


def _mine(tmp_path: Path, files: dict[str, str], **kwargs: object) -> dict[str, ErrorRecord]:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = mine_paths([root], repo="o/r", sha="0" * 40, analyzed_at=WHEN, **kwargs)  # type: ignore[arg-type]
    return {r.error_message: r for r in result.records}


def _only(records: dict[str, ErrorRecord], start: str) -> ErrorRecord:
    [record] = [r for m, r in records.items() if m.startswith(start)]
    return record


def test_seed_like_site_gets_the_three_ways_out(tmp_path: Path) -> None:
    records = _mine(tmp_path, {"config.py": CONFIG, "hook.py": HOOK})
    r = _only(records, "DeepEP v2 MoE is not validated")
    assert GENERATED_TAG in r.tags
    assert r.documentation == (
        "Reject an explicit or inherited DeepEP v2 draft backend. Raised when `draft_backend` "
        "(--speculative-moe-a2a-backend or --moe-a2a-backend) is deepep_v2."
    )
    assert r.solutions[0] == "Select another --speculative-moe-a2a-backend."
    # The flag's own help text follows the first solution that names it.
    assert r.solutions[1] == (
        "Set --speculative-moe-a2a-backend to a value other than deepep_v2 (one of none, deepep)"
        ". --speculative-moe-a2a-backend: Draft A2A backend"
    )
    assert any(
        s.startswith("Set --moe-a2a-backend to a value other than deepep_v2") for s in r.solutions
    )
    assert "Use an ngram --speculative-algorithm" in r.solutions
    assert r.example_fix == (
        "# before\n--speculative-moe-a2a-backend deepep_v2\n"
        "# after\n--speculative-moe-a2a-backend none"
    )
    assert "--speculative-moe-a2a-backend" in r.trigger_scenarios
    assert r.validation_code is not None and "if draft_backend == 'deepep_v2':" in r.validation_code
    assert "--internal-only" not in json.dumps(r.model_dump(mode="json"))


def test_argparse_membership_gives_accepted_values(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "cli.py": """
                import argparse
                def parser():
                    p = argparse.ArgumentParser()
                    p.add_argument("--log-level", dest="level", default="info", help="Verbosity.")
                    return p
                def check(args):
                    if args.level not in ("debug", "info", "warning"):
                        raise ValueError(f"unknown log level {args.level!r}")
            """
        },
    )
    r = _only(records, "unknown log level")
    assert "--log-level is not one of debug, info, warning" in r.documentation
    assert r.solutions == (
        "Set --log-level to one of debug, info, warning. --log-level: Verbosity",
    )
    assert r.example_fix == "# before\n--log-level <yours>\n# after\n--log-level debug"


def test_a_parameter_named_as_a_flag_names_the_flag(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "args.py": """
                import argparse
                p = argparse.ArgumentParser()
                p.add_argument("--sampling-backend", choices=["torch", "intel_xpu"])
            """,
            "check.py": """
                def validate(sampling_backend, device):
                    if sampling_backend == "intel_xpu" and device != "xpu":
                        raise ValueError("intel_xpu sampling requires an XPU device")
            """,
        },
    )
    r = _only(records, "intel_xpu sampling")
    # A parameter named as a multi-word flag is that flag.
    assert "--sampling-backend is intel_xpu and `device` is not xpu" in r.documentation
    assert r.solutions[0] == "Set --sampling-backend to a value other than intel_xpu (one of torch)"
    assert "Pass xpu for `device`" in r.solutions


def test_isinstance_guard_reads_as_a_type_and_gives_a_type_guard(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "m.py": """
                def scale(n, factor=2):
                    \"\"\"Scale a count.\"\"\"
                    if not isinstance(n, int):
                        raise TypeError("n must be an integer")
                    return n * factor
            """
        },
    )
    r = _only(records, "n must be an integer")
    assert r.documentation == "Scale a count. Raised when `n` is not an int."
    assert r.solutions == ("Pass an int for `n`",)
    assert r.type_guard is not None and r.type_guard.startswith("if not isinstance(n, int):")
    assert r.trigger_scenarios == "Occurs when `n` is not an int."


def test_early_exits_make_later_raises_conditional(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "m.py": """
                def pick(items, limit):
                    for item in items:
                        if item is None:
                            continue
                        if limit > 10:
                            return item
                        raise LookupError("no usable item found")
            """
        },
    )
    r = _only(records, "no usable item")
    # The documentation keeps what the caller decides; the whole condition is the detail.
    assert r.documentation == "Raised when `limit` is at most 10."
    assert "when `item` is not None and `limit` is at most 10" in r.trigger_scenarios
    assert "Pass a value greater than 10 for `limit`" in r.solutions


def test_else_branch_and_handler(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "m.py": """
                def load(path, strict):
                    try:
                        data = open(path).read()
                    except OSError:
                        raise RuntimeError("could not read the configuration file")
                    if strict:
                        pass
                    else:
                        raise ValueError("loose mode is not supported any more")
            """
        },
    )
    handler = _only(records, "could not read")
    assert handler.documentation.endswith("while handling OSError: the cause is shown above it.")
    assert handler.solutions[0] == (
        "Fix the OSError shown above this error in the traceback: "
        "load caught it and raised this one"
    )
    loose = _only(records, "loose mode")
    assert "when `strict` is not set" in loose.documentation
    assert loose.solutions == ("Pass a non-empty value for `strict`",)


def test_environment_variables_from_os_and_registries(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "environ.py": """
                class EnvBool:
                    def __init__(self, default): ...
                class Envs:
                    APP_FAST_PATH = EnvBool(False)
                envs = Envs()
            """,
            "m.py": """
                import os
                from pkg.environ import envs
                def run(batch):
                    if envs.APP_FAST_PATH.get() and batch > 8:
                        raise ValueError("fast path supports at most 8 requests")
                    if os.getenv("APP_STRICT") == "1":
                        raise RuntimeError("strict mode refuses to run this batch")
            """,
        },
    )
    fast = _only(records, "fast path")
    assert "environment variable APP_FAST_PATH is set" in fast.documentation
    assert "Unset environment variable APP_FAST_PATH" in fast.solutions
    strict = _only(records, "strict mode")
    assert "environment variable APP_STRICT is 1" in strict.documentation
    assert "Set environment variable APP_STRICT to a value other than 1" in strict.solutions


def test_nothing_is_invented_where_the_code_says_nothing(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {"m.py": "def f(cfg):\n    raise NotImplementedError('subclasses implement f')\n"},
    )
    r = _only(records, "subclasses implement")
    assert r.documentation == "An internal check of r in `f`: no setting you pass decides it."
    assert r.trigger_scenarios == "" and r.example_fix == "" and r.validation_code is None
    [solution] = r.solutions
    assert solution.startswith("r does not implement this case (in f); it is an internal limit")
    assert solution.endswith("report it at https://github.com/o/r/issues with the traceback")
    assert not re.search(r"--[a-z]", json.dumps(r.model_dump(mode="json")))


def test_module_level_raise(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "m.py": (
                "import sys\nif sys.maxsize < 2**32:\n"
                "    raise ImportError('needs a 64-bit Python')\n"
            )
        },
    )
    r = _only(records, "needs a 64-bit")
    assert r.documentation == (
        "Raised when module `pkg.m` is imported (when `sys.maxsize` is less than `2 ** 32`)."
    )
    assert "internal check" in r.solutions[0]


def test_no_advice_keeps_the_drafts_empty(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {"m.py": "def f(x):\n    if x:\n        raise ValueError('x is bad here')\n"},
        advice=False,
    )
    r = _only(records, "x is bad")
    assert (r.documentation, r.solutions, r.tags) == ("", (), ("errcat:in:f",))


# --- options ----------------------------------------------------------------------------


def test_option_sources() -> None:
    src = textwrap.dedent(
        """
        import click, typer
        from dataclasses import dataclass, field
        from pydantic_settings import BaseSettings, SettingsConfigDict

        @click.command()
        @click.option("--batch-size", "-b", type=click.Choice(["1", "2"]), help="Batch.")
        @click.option("--dry-run", is_flag=True)
        def main(batch_size, dry_run): ...

        def serve(port: int = typer.Option(8000, "--port", help="Port.")): ...

        class Settings(BaseSettings):
            model_config = SettingsConfigDict(env_prefix="APP_")
            cache_dir: str = "/tmp"

        @dataclass
        class EngineArgs:
            max_len: int = 4096
            seed: int = field(default=0, metadata={"help": "Random seed."})

        def parser(p):
            return add_cli_args_from_dataclass(p, EngineArgs)
        """
    )
    found = collect_options(ast.parse(src), src, lambda name: f"m.{name}")
    by = {o.dest: o for o in found.options}
    assert by["batch_size"].flag == "--batch-size" and by["batch_size"].choices == ("1", "2")
    assert by["dry_run"].is_bool
    assert by["port"].flag == "--port" and by["port"].help == "Port."
    assert (by["cache_dir"].flag, by["cache_dir"].kind) == ("APP_CACHE_DIR", "env")
    assert found.parsed == ["m.EngineArgs"]
    [(name, fields)] = found.fields
    assert name == "m.EngineArgs"
    assert [(f.flag, f.default, f.help) for f in fields] == [
        ("--max-len", "4096", ""),
        ("--seed", "0", "Random seed."),
    ]


_NAMES = st.from_regex(r"[a-z][a-z0-9]{0,6}(_[a-z0-9]{1,5}){0,2}", fullmatch=True).filter(
    lambda s: not keyword.iskeyword(s)
)
_VALUES = st.lists(
    st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), min_size=1, max_size=6, unique=True
)


@settings(max_examples=60, deadline=None)
@given(dest=_NAMES, choices=_VALUES, default=st.sampled_from([None, 0]))
def test_argparse_options_read_back(dest: str, choices: list[str], default: int | None) -> None:
    flag = "--" + dest.replace("_", "-")
    shown = choices[default] if default is not None else None
    src = f"p.add_argument({flag!r}, choices={choices!r}, default={shown!r}, help='h')\n"
    found = collect_options(ast.parse(src), src, str)
    [option] = found.options
    assert (option.dest, option.flag, option.choices) == (dest, flag, tuple(choices))
    assert option.default == (choices[default] if default is not None else None)


# --- conditions -------------------------------------------------------------------------

_VARS = ("a", "b", "c")


def _exprs() -> st.SearchStrategy[str]:
    leaf = st.one_of(
        st.sampled_from(_VARS),
        st.builds(
            lambda v, n, op: f"{v} {op} {n}",
            st.sampled_from(_VARS),
            st.integers(0, 3),
            st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
        ),
        st.builds(
            lambda v, ns: f"{v} in {tuple(ns)!r}",
            st.sampled_from(_VARS),
            st.lists(st.integers(0, 3), min_size=1, max_size=3),
        ),
        st.builds(lambda v: f"{v} is None", st.sampled_from(_VARS)),
        st.builds(lambda v: f"isinstance({v}, int)", st.sampled_from(_VARS)),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.builds(lambda x: f"not ({x})", inner),
            st.builds(lambda x, y: f"({x}) and ({y})", inner, inner),
            st.builds(lambda x, y: f"({x}) or ({y})", inner, inner),
        ),
        max_leaves=6,
    )


_ENV_VALUES = st.fixed_dictionaries(
    {v: st.one_of(st.none(), st.integers(0, 3), st.just("s")) for v in _VARS}
)


def _eval(source: str, env: dict[str, object]) -> bool | None:
    """The truth of a test for some values of its names (``None``: it cannot compare them)."""
    try:
        return bool(eval(source, {"isinstance": isinstance, "int": int}, dict(env)))
    except TypeError:
        return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_exprs(), env=_ENV_VALUES)
def test_negate_is_the_logical_negation(source: str, env: dict[str, object]) -> None:
    value = _eval(source, env)
    assume(value is not None)
    assert _eval(ast.unparse(negate(parse_test(source))), env) is (not value)


@settings(max_examples=200, deadline=None)
@given(source=_exprs())
def test_describe_names_every_option_it_reads_and_no_other(source: str) -> None:
    index = OptionIndex([_Option("a", "--alpha"), _Option("b", "--beta", choices=("0", "1"))], [])
    reader = Reader(index)
    node = parse_test(re.sub(r"\b([ab])\b", r"cfg.\1", source))
    text = reader.describe(node) + " ".join(w.text for w in ways_out(reader, node))
    flags = set(re.findall(r"--[a-z-]+", text))
    assert flags <= {"--alpha", "--beta"}
    for name, flag in (("cfg.a", "--alpha"), ("cfg.b", "--beta")):
        if name in ast.unparse(node):
            assert flag in reader.describe(node)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(defined=st.booleans(), name=_NAMES, value=st.from_regex(r"[a-z]{1,6}", fullmatch=True))
def test_generated_text_names_only_options_the_source_defines(
    tmp_path_factory: pytest.TempPathFactory, defined: bool, name: str, value: str
) -> None:
    flag = "--" + name.replace("_", "-")
    config = (
        f"import argparse\np = argparse.ArgumentParser()\np.add_argument({flag!r})\n"
        if defined
        else ""
    )
    records = _mine(
        tmp_path_factory.mktemp("honest"),
        {
            "config.py": config,
            "m.py": (
                f"def f(cfg):\n    if cfg.{name} == {value!r}:\n"
                "        raise ValueError('that setting is refused')\n"
            ),
        },
    )
    r = _only(records, "that setting")
    text = json.dumps(r.model_dump(mode="json", exclude={"source_code"}))
    assert (flag in text) is defined


# --- re-anchoring and rendering --------------------------------------------------------


def test_update_keeps_curated_advice_and_refreshes_generated(tmp_path: Path) -> None:
    files = {
        "m.py": (
            "def f(cfg):\n    if cfg.level > 3:\n"
            "        raise ValueError('level is too high here')\n"
        )
    }
    first = mine_paths([_write(tmp_path / "a", files)], repo="o/r", sha="0" * 40, analyzed_at=WHEN)
    [env] = first.envelopes
    curated = env.model_copy(
        update={
            "record": env.record.model_copy(
                update={"documentation": "Curated words.", "tags": ("curated",)}
            )
        }
    )
    files["m.py"] = (
        "def f(cfg):\n    if cfg.level > 5:\n        raise ValueError('level is too high here')\n"
    )
    second = mine_paths([_write(tmp_path / "b", files)], repo="o/r", sha="1" * 40, analyzed_at=WHEN)
    [kept] = reanchor([curated], second).envelopes
    # The curated words stay; which function raises it is the code's, refreshed.
    assert kept.record.documentation == "Curated words."
    assert kept.record.tags == ("curated", "errcat:in:f")
    [fresh] = reanchor([env], second).envelopes
    assert "greater than 5" in fresh.record.documentation
    assert fresh.record.tags == (GENERATED_TAG, "errcat:in:f")


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_renderings_say_the_advice_is_generated(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {"m.py": "def f(n):\n    if n < 0:\n        raise ValueError('n must not be negative')\n"},
    )
    advice = Advice.from_record(_only(records, "n must not"))
    assert advice.generated
    assert "generated from the source code" in advice.to_text()
    assert "generated from the source code" in advice.to_markdown()
    assert advice.to_dict()["generated"] is True
    from errcat import advice as advice_module

    assert advice_module._GENERATED_TAG == GENERATED_TAG


def test_cli_no_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    src = _write(
        tmp_path / "src",
        {"m.py": "def f(x):\n    if x:\n        raise ValueError('x is bad here')\n"},
    )
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    for extra, generated in (([], True), (["--no-advice"], False)):
        args = parser.parse_args([str(src), "--repo", "o/r", "--sha", "0" * 40, *extra])
        assert run(args) == 0
        out = json.loads(capsys.readouterr().out)
        assert (GENERATED_TAG in out["record"]["tags"]) is generated


def test_only_settings_objects_are_read_as_flags() -> None:
    index = OptionIndex([_Option("dtype", "--dtype")], [])
    assert Reader(index).describe(parse_test("args.dtype == 'half'")) == "--dtype is half"
    assert Reader(index).describe(parse_test("q.dtype == 'half'")) == "`q.dtype` is half"
    view = Reader(index, defs={"v": (_Def("v", "resolved_view(server_args)"),)})
    assert view.describe(parse_test("v.dtype == 'half'")) == "--dtype is half"
    assert Reader(index).describe(parse_test("self.dtype == 'half'")) == "`self.dtype` is half"
    assert Reader(index, self_is_config=True).describe(parse_test("self.dtype")) == "--dtype is set"


# --- flags reaching a guard through parameters, locals and helpers ---------------------

OPTIONS = """
import argparse
p = argparse.ArgumentParser()
p.add_argument("--prompt-buckets")
p.add_argument("--decode-buckets")
p.add_argument("--tp-size", type=int)
p.add_argument("--dcp-size", type=int)
p.add_argument("--attention-backend")
p.add_argument("--draft-backend")
p.add_argument("--model-config")
"""


def test_a_parameter_names_the_flags_its_callers_pass(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "options.py": OPTIONS,
            "rules.py": """
                def check_buckets(name, rule):
                    if rule[0] not in ("tse", "default"):
                        raise ValueError(f"{name}: unknown buckets rule")
            """,
            "hook.py": """
                from pkg.rules import check_buckets
                def validate(server_args):
                    cfg = resolving_view(server_args)
                    check_buckets("--prompt-buckets", cfg.prompt_buckets)
                    check_buckets(name="--decode-buckets", rule=cfg.decode_buckets)
            """,
        },
    )
    r = _only(records, "{name}: unknown buckets rule")
    assert "`rule[0]` (from --prompt-buckets, --decode-buckets) is not one of" in r.documentation
    assert r.solutions == (
        "Change --prompt-buckets or --decode-buckets (the check needs a value they give to be "
        "one of tse, default)",
    )


def test_a_method_of_the_settings_class_passes_its_own_fields(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "options.py": OPTIONS,
            "server_args.py": """
                class ServerArgs:
                    def _check_size(self, size):
                        if size < 1:
                            raise ValueError("size must be positive")
                    def post_init(self):
                        tp = self.tp_size
                        self._check_size(tp)
            """,
        },
    )
    r = _only(records, "size must be positive")
    # The only flag its callers pass: the parameter is that flag.
    assert r.documentation == "Raised when --tp-size is less than 1."
    assert r.solutions == ("Set --tp-size to a value at least 1",)


def test_a_parameter_passed_on_from_the_caller_is_not_followed(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "options.py": OPTIONS,
            "m.py": """
                def inner(size):
                    if size < 1:
                        raise ValueError("size must be positive")
                def outer(size):
                    inner(size)
            """,
        },
    )
    r = _only(records, "size must be positive")
    assert "--" not in r.documentation


def test_a_term_computed_from_flags_names_them(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "options.py": OPTIONS,
            "m.py": """
                def check(server_args, model_config):
                    view = resolved_view(server_args)
                    tp, dcp = view.tp_size, view.dcp_size
                    if tp % dcp != 0:
                        raise ValueError("dcp must divide tp")
                    if model_config.head_dim > 256:
                        raise ValueError("head too wide")
            """,
        },
    )
    r = _only(records, "dcp must divide tp")
    assert r.documentation == "Raised when --tp-size is not a multiple of --dcp-size."
    assert r.solutions == ("Set --tp-size to a multiple of --dcp-size",)
    # A parameter merely named like a flag is not said to come from it.
    wide = _only(records, "head too wide")
    assert "`model_config.head_dim` is greater than 256" in wide.documentation
    assert "--model-config" not in wide.documentation


def test_getattr_over_literal_field_names_reads_those_flags(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "options.py": OPTIONS,
            "m.py": """
                def check(cfg):
                    for field in ("attention_backend", "draft_backend"):
                        value = getattr(cfg, field, None)
                        name = getattr(value, "value", value)
                        if name not in {None, "torch"}:
                            raise ValueError("only torch attention here")
            """,
        },
    )
    r = _only(records, "only torch attention")
    assert "(from --attention-backend, --draft-backend)" in r.documentation


def test_an_unpacked_call_result_is_indexed() -> None:
    from errcat.mine.scan import scan_source

    scan = scan_source(
        "def f(cfg):\n    a, _, c = g(cfg)\n    if a and c:\n        raise ValueError('both')\n",
        module="m",
    )
    [site] = scan.sites
    assert site.guard is not None
    assert [(d.name, d.expr) for d in site.guard.defs] == [("a", "g(cfg)[0]"), ("c", "g(cfg)[2]")]


def test_enum_values_and_optional_conversions_read_through() -> None:
    index = OptionIndex([_Option("sampling_backend", "--sampling-backend")], [])
    reader = Reader(index)
    for source in (
        "getattr(cfg.sampling_backend, 'value', cfg.sampling_backend) == 'x'",
        "(None if cfg.sampling_backend is None else str(cfg.sampling_backend).lower()) == 'x'",
    ):
        assert reader.describe(parse_test(source)) == "--sampling-backend is x"
    # getattr of another attribute than ``value`` is not the object itself
    assert "--" not in reader.describe(parse_test("getattr(x, 'name', x) == 'x'"))


@settings(max_examples=40, deadline=None)
@given(
    names=st.lists(_NAMES, min_size=2, max_size=5, unique=True),
    defined=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_unpacked_locals_name_the_flags_in_their_positions(
    names: list[str], defined: list[bool]
) -> None:
    from errcat.mine.scan import scan_source

    locals_ = [f"v{i}" for i in range(len(names))]
    source = (
        "def f(cfg):\n"
        f"    {', '.join(locals_)} = {', '.join(f'cfg.{n}' for n in names)}\n"
        f"    if {' + '.join(locals_)} > 3:\n"
        "        raise ValueError('too much')\n"
    )
    [site] = scan_source(source, module="m").sites
    assert site.guard is not None
    kept = [n for n, d in zip(names, defined[: len(names)], strict=True) if d]
    options = [_Option(n, "--" + n.replace("_", "-")) for n in kept]
    defs: dict[str, list[_Def]] = {}
    for d in site.guard.defs:
        defs.setdefault(d.name, []).append(d)
    reader = Reader(OptionIndex(options, []), defs=defs)
    text = reader.describe(parse_test(site.guard.clauses[0][0]))
    named = set(re.findall(r"--[a-z0-9-]+", text))
    flags = {o.flag for o in options}
    assert named <= flags
    if len(flags) <= 4:  # more are cut short, and the text says so
        assert named == flags
    else:
        assert len(named) == 4 and "and others" in text


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(defined=st.booleans(), name=_NAMES, keyword_arg=st.booleans())
def test_call_site_bindings_name_only_defined_flags(
    tmp_path_factory: pytest.TempPathFactory, defined: bool, name: str, keyword_arg: bool
) -> None:
    assume(name not in ("value", "cfg", "args"))
    flag = "--" + name.replace("_", "-")
    config = (
        f"import argparse\np = argparse.ArgumentParser()\np.add_argument({flag!r})\n"
        if defined
        else ""
    )
    passed = f"value=args.{name}" if keyword_arg else f"args.{name}"
    records = _mine(
        tmp_path_factory.mktemp("bound"),
        {
            "config.py": config,
            "m.py": (
                "def check(value):\n    if value < 0:\n"
                "        raise ValueError('that value is refused')\n"
                f"def run(args):\n    check({passed})\n"
            ),
        },
    )
    r = _only(records, "that value")
    text = json.dumps(r.model_dump(mode="json", exclude={"source_code"}))
    assert (flag in text) is defined


def test_a_helper_called_on_the_settings_names_the_flags_it_reads(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "options.py": OPTIONS,
            "views.py": """
                def draft_of(cfg):
                    return cfg.draft_backend
                def backends_of(cfg):
                    view = resolved_view(cfg)
                    return view.attention_backend, draft_of(view)
                def head_dim_of(model):
                    return model.tp_size
            """,
            "hook.py": """
                from pkg.views import backends_of, head_dim_of
                def check(server_args, model):
                    if "trtllm" in backends_of(server_args):
                        raise ValueError("trtllm is not supported here")
                    if head_dim_of(model) > 2:
                        raise ValueError("head too wide")
            """,
        },
    )
    r = _only(records, "trtllm is not supported")
    assert "`backends_of(server_args)` (from --attention-backend, --draft-backend)" in (
        r.documentation
    )
    # The helper's parameter is the settings only when a settings object is handed to it.
    wide = _only(records, "head too wide")
    assert "--tp-size" not in wide.documentation


def test_a_helper_reading_many_settings_names_none() -> None:
    many = [_Option(f"o{i}", f"--o{i}") for i in range(6)]
    refs = [Ref("flag", o.flag) for o in many]

    def reads(callee: str, key: str, method: bool) -> list[Ref]:
        return refs if callee == "m.build" else refs[:2]

    reader = Reader(
        OptionIndex(many, []),
        calls={"build": ("m.build", False), "mode_of": ("m.mode_of", False)},
        reads=reads,
    )
    assert "--" not in reader.describe(parse_test("build(args).is_mla"))
    assert (
        reader.describe(parse_test("mode_of(args)")) == "`mode_of(args)` (from --o0, --o1) is true"
    )
    # What is handed over must be the settings: a model object is not.
    assert "--" not in reader.describe(parse_test("mode_of(model)"))
