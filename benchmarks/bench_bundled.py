"""Time the bundled catalog the way a user meets it: first answer after install, then one-shots.

Run with ``python benchmarks/bench_bundled.py [--errcat PATH] [--runs N] [--install]``.
Each measurement is a whole ``errcat match "<paste>"`` process, wall clock:

* **first answer**: with an empty cache directory (``ERRCAT_CACHE_DIR`` pointed at
  a new temporary one), so the compressed data is decompressed and its stored
  index built, as on the first call after ``pip install``;
* **one-shot**: the same command again, the cache now warm (median of ``--runs``).

With ``--install`` it first builds the wheel, installs it into a new venv in a
temporary directory and measures that install (and its size on disk); otherwise
it uses ``--errcat`` (default: the ``errcat`` beside this Python). It prints a table.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASTES = (
    "ValueError: The input (85050 tokens) is longer than the model's context length "
    "(32768 tokens).",
    "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend.",
)


def tree_size(path: Path) -> int:
    """Bytes of the files under ``path``."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def install(tmp: Path) -> tuple[Path, dict[str, str]]:
    """Build the wheel and install it into a new venv; the errcat command and facts."""
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(dist.glob("*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    started = time.perf_counter()
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, capture_output=True
    )
    seconds = time.perf_counter() - started
    package = next((venv / "lib").glob("python*/site-packages/errcat"))
    facts = {
        "wheel MB": f"{wheel.stat().st_size / 1e6:.1f}",
        "installed errcat/ MB": f"{tree_size(package) / 1e6:.1f}",
        "of which _data MB": f"{tree_size(package / '_data') / 1e6:.1f}",
        "pip install s": f"{seconds:.1f}",
    }
    return venv / "bin" / "errcat", facts


def user_environment() -> dict[str, str]:
    """This environment as a user's shell has it: Python free to cache bytecode.

    With ``PYTHONDONTWRITEBYTECODE`` set (some sandboxes and CI images set it)
    every run compiles errcat's modules from source again, about 100 ms here,
    which no installed copy pays: pip compiles them at install time and an
    editable checkout caches them on the first run.
    """
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(errcat: Path, text: str, cache: Path, cwd: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (its processes') and exit code of one ``errcat match``.

    On a busy machine the wall time includes waiting for a core; the CPU time
    is what the command costs on an idle one (its worker processes included).
    """
    env = {**user_environment(), "ERRCAT_CACHE_DIR": str(cache)}
    cpu = _cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [str(errcat), "match", text], env=env, cwd=cwd, capture_output=True, check=False
    )
    return time.perf_counter() - started, _cpu() - cpu, done.returncode


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--errcat", type=Path, default=Path(sys.executable).with_name("errcat"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--install", action="store_true", help="build and install a wheel first")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        errcat: Path = args.errcat
        facts: dict[str, str] = {}
        if args.install:
            errcat, facts = install(tmp)
        cache = tmp / "cache"
        first, cpu, code = run_once(errcat, PASTES[0], cache, tmp)
        facts["first answer s (empty cache)"] = f"wall {first:.2f}, cpu {cpu:.2f} (exit {code})"
        facts["cache MB"] = f"{tree_size(cache) / 1e6:.1f}"
        for text in PASTES:
            times, cpus = [], []
            for _ in range(args.runs):
                seconds, cpu, code = run_once(errcat, text, cache, tmp)
                times.append(seconds)
                cpus.append(cpu)
            label = f"one-shot s, median of {args.runs}: {text[:40]}..."
            facts[label] = (
                f"wall {statistics.median(times):.3f} (min {min(times):.3f}), "
                f"cpu {statistics.median(cpus):.3f} (exit {code})"
            )
        cpu = _cpu()
        start = time.perf_counter()
        subprocess.run([str(errcat.with_name("python")), "-c", "pass"], check=True)
        facts["bare python start s"] = (
            f"wall {time.perf_counter() - start:.3f}, cpu {_cpu() - cpu:.3f}"
        )
    width = max(len(k) for k in facts)
    print(f"{'measure'.ljust(width)} | value")
    print(f"{'-' * width}-+------")
    for key, value in facts.items():
        print(f"{key.ljust(width)} | {value}")


if __name__ == "__main__":
    main()
