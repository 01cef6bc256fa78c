"""Log sites traced to levers: a method's returns, and a branch that logs then leaves.

vllm's V0 scheduler logs ``Input prompt (N tokens) is too long and exceeds
limit of M`` when ``num_new_tokens > prompt_limit``, with ``prompt_limit =
self._get_prompt_limit(seq_group)`` computed from the scheduler config's
``max_model_len`` and ``max_num_batched_tokens``: the synthetic project below
has that shape (errcat.mine.returns).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.mine import mine_paths
from errcat.models import ErrorRecord

ARGS = """
import argparse
def make_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-model-len", type=int, help="Model context length.")
    parser.add_argument("--max-num-batched-tokens", type=int, help="Tokens per iteration.")
    parser.add_argument("--block-size", type=int, help="Tokens per block.")
    return parser
"""

CONFIG = """
class SchedulerConfig:
    def __init__(self, max_model_len, max_num_batched_tokens, block_size, chunked):
        self.max_model_len = max_model_len
        self.max_num_batched_tokens = max_num_batched_tokens
        self.block_size = block_size
        self.chunked = chunked
"""

SCHEDULER = """
import logging
from proj.config import SchedulerConfig
logger = logging.getLogger(__name__)
class Scheduler:
    def __init__(self, scheduler_config: SchedulerConfig):
        self.scheduler_config = scheduler_config
        self.waiting = []
    def _get_prompt_limit(self, seq_group):
        if self.scheduler_config.chunked:
            prompt_limit = self.scheduler_config.max_model_len
        else:
            prompt_limit = min(
                self.scheduler_config.max_model_len,
                self.scheduler_config.max_num_batched_tokens,
            )
        if seq_group.lora_request:
            return seq_group.lora_request.long_lora_max_len
        return prompt_limit
    def _schedule_prefills(self, queue):
        for seq_group in queue:
            num_new_tokens = seq_group.num_tokens()
            prompt_limit = self._get_prompt_limit(seq_group)
            if num_new_tokens > prompt_limit:
                logger.warning(
                    "Input prompt (%d tokens) is too long and exceeds limit of %d",
                    num_new_tokens,
                    prompt_limit,
                )
                continue
            if not self.block_manager.can_allocate(seq_group):
                logger.warning("Input prompt (%d tokens) exceeds the block manager", num_new_tokens)
                continue
"""


def _mine(tmp_path: Path, files: dict[str, str]) -> dict[str, ErrorRecord]:
    root = tmp_path / "proj"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = mine_paths([root], repo="o/proj", sha="0" * 40, path_prefix="proj")
    return {r.error_message: r for r in result.records}


def _only(records: dict[str, ErrorRecord], start: str) -> ErrorRecord:
    [record] = [r for m, r in records.items() if m.startswith(start)]
    return record


def test_a_limit_a_method_returns_from_the_config_names_its_flags(tmp_path: Path) -> None:
    records = _mine(
        tmp_path, {"arg_utils.py": ARGS, "config.py": CONFIG, "scheduler.py": SCHEDULER}
    )
    too_long = _only(records, "Input prompt ({num_new_tokens} tokens) is too long")
    assert too_long.solutions[:2] == (
        "Raise --max-model-len if you can (it decides `prompt_limit`). "
        "--max-model-len: Model context length",
        "Raise --max-num-batched-tokens if you can (it decides `prompt_limit`). "
        "--max-num-batched-tokens: Tokens per iteration",
    )
    assert too_long.documentation == (
        "Logged when `seq_group.num_tokens()` is greater than `prompt_limit` "
        "(from --max-model-len, --max-num-batched-tokens)."
    )


def test_a_limit_assigned_from_the_config_on_each_branch_names_its_flags(tmp_path: Path) -> None:
    source = """
    import logging
    from proj.config import SchedulerConfig
    logger = logging.getLogger(__name__)
    class Scheduler:
        def __init__(self, scheduler_config: SchedulerConfig):
            self.scheduler_config = scheduler_config
        def schedule(self, seq_group):
            if self.scheduler_config.chunked:
                prompt_limit = self.scheduler_config.max_model_len
            else:
                prompt_limit = min(
                    self.scheduler_config.max_model_len,
                    self.scheduler_config.max_num_batched_tokens,
                )
            if seq_group.n > prompt_limit:
                logger.warning("Input prompt (%d tokens) is too long", seq_group.n)
            budget = self.scheduler_config.max_model_len
            if seq_group.partial:
                budget = seq_group.remaining
            if seq_group.n > budget:
                logger.warning("Input prompt (%d tokens) is over the budget", seq_group.n)
    """
    records = _mine(tmp_path, {"arg_utils.py": ARGS, "config.py": CONFIG, "scheduler.py": source})
    too_long = _only(records, "Input prompt ({seq_group.n} tokens) is too long")
    assert too_long.documentation == (
        "Logged when `seq_group.n` is greater than `prompt_limit` "
        "(from --max-model-len, --max-num-batched-tokens)."
    )
    assert too_long.solutions[0].startswith("Raise --max-model-len if you can")
    # A local that is also internal state on another branch names no lever in the text.
    over = _only(records, "Input prompt ({seq_group.n} tokens) is over")
    assert over.documentation == "Logged when `seq_group.n` is greater than `budget`."


def test_a_branch_that_logs_another_error_and_leaves_is_no_way_out(tmp_path: Path) -> None:
    # Lowering --max-model-len makes the prompt "too long" instead: that is no fix.
    records = _mine(
        tmp_path, {"arg_utils.py": ARGS, "config.py": CONFIG, "scheduler.py": SCHEDULER}
    )
    full = _only(records, "Input prompt ({num_new_tokens} tokens) exceeds the block manager")
    assert not any("--max-model-len" in s for s in full.solutions)
    assert "internal check" in full.documentation


#: What an early exit does, and how bad that is (info: nothing; a raise: the worst).
EXITS = {
    "logger.info('skipping a long prompt')": -1,
    "logger.warning('skipping a long prompt')": 0,
    "logger.error('dropping a long prompt')": 1,
    "logger.critical('dropping a long prompt')": 2,
    "raise ValueError('prompt too long')": 3,
}
#: A later report of the same function, and how bad it is.
SITES = {
    "logger.warning('Prompt of %d tokens spans several blocks', n)": 0,
    "logger.error('Prompt of %d tokens spans several blocks', n)": 1,
    "raise ValueError(f'Prompt of {n} tokens spans several blocks')": 3,
}


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize("exit_", EXITS)
def test_an_early_exit_is_a_way_out_only_to_a_milder_report(
    tmp_path: Path, exit_: str, site: str
) -> None:
    # Passing a longer prompt than --max-model-len trades the later report for the early
    # exit's: a fix only when that one is milder (a warning instead of a raise).
    leave = "" if exit_.startswith("raise") else "\n            return"
    source = f"""
    import logging
    logger = logging.getLogger(__name__)
    def admit(args, n):
        if n > args.max_model_len:
            {exit_}{leave}
        if n > args.block_size:
            {site}
    """
    records = _mine(tmp_path, {"arg_utils.py": ARGS, "admit.py": source})
    spans = _only(records, "Prompt of")
    assert any("--block-size" in s for s in spans.solutions)
    way_out = EXITS[exit_] < SITES[site]
    assert any("--max-model-len" in s for s in spans.solutions) is way_out


#: Returns of a method, and whether each is computed from the config alone.
RETURNS = st.sampled_from(
    [
        ("self.cfg.max_model_len", {"--max-model-len"}),
        ("min(self.cfg.max_model_len, self.cfg.max_num_batched_tokens)", None),
        ("self.cfg.block_size * 16", {"--block-size"}),
        ("int(self.cfg.max_num_batched_tokens) - 1", {"--max-num-batched-tokens"}),
        ("req.budget", set()),
        ("self.used + 1", set()),
        ("len(self.queue)", set()),
        ("max(req.budget, self.cfg.block_size)", set()),
    ]
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(returns=st.lists(RETURNS, min_size=1, max_size=3, unique_by=lambda r: r[0]))
def test_a_method_names_the_flags_of_its_returns_computed_from_levers_alone(
    tmp_path: Path, returns: list[tuple[str, set[str] | None]]
) -> None:
    body = "".join(
        f"        if req.kind == {i}:\n            return {expr}\n"
        for i, (expr, _) in enumerate(returns[:-1])
    )
    body += f"        return {returns[-1][0]}\n"
    source = (
        "import logging\n"
        "from proj.config import SchedulerConfig\n"
        "logger = logging.getLogger(__name__)\n"
        "class Engine:\n"
        "    def __init__(self, cfg: SchedulerConfig):\n"
        "        self.cfg = cfg\n"
        "        self.used = 0\n"
        "        self.queue = []\n"
        "    def _limit(self, req):\n"
        f"{body}"
        "    def step(self, req):\n"
        "        size = req.size\n"
        "        if size > self._limit(req):\n"
        "            logger.warning('Request of %d tokens is over the limit', size)\n"
    )
    records = _mine(tmp_path, {"arg_utils.py": ARGS, "config.py": CONFIG, "engine.py": source})
    record = _only(records, "Request of")
    expected: set[str] = set()
    for _, flags in returns:
        expected |= {"--max-model-len", "--max-num-batched-tokens"} if flags is None else flags
    named = {
        flag
        for flag in ("--max-model-len", "--max-num-batched-tokens", "--block-size")
        if any(s.startswith(("Raise " + flag, "Change " + flag)) for s in record.solutions)
    }
    assert named == expected
