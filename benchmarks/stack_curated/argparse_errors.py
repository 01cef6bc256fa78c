"""argparse's command-line errors, as ``prog: error: ...`` prints them (CPython 3.11.7).

argparse does not raise these through a ``raise`` a miner reads: it formats
the message and calls ``parser.error``, which prints the usage and
``<prog>: error: <message>`` and exits with status 2 (``Lib/argparse.py``,
``ArgumentParser.error``). ``vllm serve`` and ``python -m
sglang.launch_server`` parse their flags with argparse, so a mistyped,
renamed or removed flag ends here. The advice names what the user changes:
the command line.

>>> [r.template.split(": ", 2)[-1][:26] for r in RECORDS][:3]
['unrecognized arguments: {a', 'argument {flag}: invalid c', 'the following arguments ar']
"""

from __future__ import annotations

from errcat.patterns import template_to_pattern
from errcat.tags import WAS_TAG_PREFIX
from stack_curated.spec import Curated

__all__ = ["RECORDS"]

_REVISION = "v3.11.7"
_PATH = "Lib/argparse.py"
_HELP = (
    "List the flags the installed release accepts: vllm serve --help=all (vllm) or"
    " python -m sglang.launch_server --help (sglang); flags are renamed and removed"
    " between releases, so copy the spelling from the installed release's help, not from"
    " an older guide"
)


def _cli(line: int, template: str, documentation: str, *solutions: str, fix: str) -> Curated:
    # A parser made with exit_on_error=False raises the message as argparse.ArgumentError
    # instead of printing "prog: error: ...": the prefix is optional.
    pattern = template_to_pattern(template)
    pattern = "(?:" + pattern.replace(": error: ", ": error: )?", 1)
    return Curated(
        repo="python/cpython",
        path=_PATH,
        line=line,
        revision=_REVISION,
        error_class="SystemExit",
        template=template,
        pattern=pattern,
        documentation=documentation,
        solutions=solutions,
        example_fix=fix,
        error_type="configuration",
        # The same words reach a paste as argparse.ArgumentError when exit_on_error=False.
        tags=("argparse", "cli", f"{WAS_TAG_PREFIX}ArgumentError"),
        trigger="Starting a server or script whose command line holds a flag or value its"
        " parser rejects.",
    )


RECORDS = (
    _cli(
        1871,
        "{prog}: error: unrecognized arguments: {args}",
        "The program's argument parser does not know the flags (or stray values) listed"
        " after 'unrecognized arguments:'. Usually the flag was renamed or removed in the"
        " installed release, belongs to another engine (a vllm flag passed to sglang), or a"
        " flag and its value reached the program as one word (a quoted '--config path' or"
        " one list item ['--config path'] in a launcher script), so the parser sees an"
        " unknown token.",
        "Remove or rename each flag listed after 'unrecognized arguments:'. " + _HELP,
        "Pass a flag and its value as two words (two list items in a subprocess call,"
        " no quotes around both): --max-model-len 8192, or write them as one with '=':"
        " --max-model-len=8192",
        "If the flag is new, upgrade the engine to the release that added it"
        " (pip install -U vllm, or pip install -U sglang)",
        fix="# before\nvllm serve Qwen/Qwen3-8B --max_model_len 8192 --lora-path ./adapter\n"
        "# after\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --enable-lora"
        " --lora-modules adapter=./adapter",
    ),
    _cli(
        2552,
        "{prog}: error: argument {flag}: invalid choice: {value} (choose from {choices})",
        "A flag that takes one of a fixed set of values got another one. The message lists"
        " the values the installed release accepts after 'choose from'; a value spelled"
        " for another release or another engine (a quantization method, a dtype, a"
        " backend name) is the usual cause.",
        "Pass one of the values listed after 'choose from' (they are spelled exactly as"
        " the parser wants them, case included)",
        "If the value you need is not listed, the installed release does not support it:"
        " upgrade the engine (pip install -U vllm, or pip install -U sglang) or pick a"
        " listed one",
        fix="# before\n--dtype bf16\n# after\n--dtype bfloat16",
    ),
    _cli(
        2142,
        "{prog}: error: the following arguments are required: {args}",
        "The command line left out an argument the program cannot start without (listed"
        " after 'required:'): a positional argument such as the model of 'vllm serve'"
        " or a required flag such as --model-path of sglang's launch_server.",
        "Add each argument listed after 'required:' to the command line: vllm serve"
        " <model> takes the model first; sglang takes --model-path <model>",
        _HELP,
        fix="# before\npython -m sglang.launch_server --port 30000\n# after\n"
        "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --port 30000",
    ),
    _cli(
        2199,
        "{prog}: error: argument {flag}: expected one argument",
        "A flag that takes a value was given none: it was the last word of the command"
        " line, or the next word starts with '-' (a negative number or another flag) so"
        " the parser did not take it as the value.",
        "Put the value right after the flag: --tensor-parallel-size 2",
        "For a value that starts with '-' or holds spaces, join it with '=' and quote it:"
        " --override-generation-config='{\"temperature\": 0.6}' or --seed=-1",
        fix="# before\nvllm serve M --max-model-len\n# after\nvllm serve M --max-model-len 8192",
    ),
    _cli(
        2541,
        "{prog}: error: argument {flag}: invalid {type} value: {value}",
        "A flag's value could not be converted to the type the flag wants (an int, a"
        " float, a JSON object): '8k' for an integer, a single-quoted or unquoted JSON"
        " text for a dict, a fraction for a percentage.",
        "Give the flag a value of the type the message names: an integer as digits"
        " (--max-model-len 8192, not 8k), a float as a decimal (--gpu-memory-utilization"
        " 0.85, not 85%), a JSON value in double quotes inside single quotes"
        " ('{\"key\": 1}')",
        _HELP,
        fix="# before\n--max-model-len 32k\n# after\n--max-model-len 32768",
    ),
    _cli(
        2263,
        "{prog}: error: ambiguous option: {option} could match {matches}",
        "argparse accepts a shortened flag only when exactly one flag starts with it; the"
        " abbreviation given matches several of the flags listed after 'could match'.",
        "Spell the flag out in full: pick one of the flags listed after 'could match'",
        fix="# before\n--max 4096\n# after\n--max-model-len 4096",
    ),
)
