r"""Records for import errors: ordinary schemaVersion 2 records, answered with no special path.

Three kinds, each a literal message (the module and name are in the text):

* ``No module named 'sgl_kernel'``: which distribution installs the module, at
  the version the engines require (:func:`missing_module`); for a compiled
  extension of a package built against torch (``vllm._C``), a build that does
  not fit the installed torch (:func:`missing_extension`);
* ``cannot import name 'Y' from 'X'``: which releases of X have Y
  (:func:`cannot_import`); Python appends the module's path, which the
  record's pattern leaves to its ``prefix`` mode;
* ``.../vllm/_C.abi3.so: undefined symbol: ...``: an extension built against
  another torch (:func:`undefined_symbol`).

A record needs a site: :class:`Site` is a file of a repository at a release
tag, a line in it and the 37 lines around it (``Lib/importlib/_bootstrap.py``
where CPython raises ``No module named``; the file that binds Y for a
``cannot import name``; the line that imports the extension).

>>> site = Site("o/r", "v1.0", "pkg/__init__.py", 3, "a = 1\nb = 2\nc = 3\n")
>>> env = missing_module(
...     "pkg",
...     [Provider("pkg-dist", "1.0", ("engine 2.0 requires pkg-dist==1.0",), "pkg-dist==1.0")],
...     site,
...     when=datetime(2026, 1, 1, tzinfo=timezone.utc),
... )
>>> env.record.error_message, env.record.message_pattern
("No module named 'pkg'", "No module named 'pkg'")
>>> print(env.record.solutions[0])  # doctest: +NORMALIZE_WHITESPACE
Install the distribution that provides 'pkg': pip install 'pkg-dist==1.0'
(engine 2.0 requires pkg-dist==1.0)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from errcat.imports.history import NameHistory
from errcat.imports.site import HIDDEN_SITE_TAG
from errcat.models import GENERATED_TAG, ErrorRecord, RecordEnvelope
from errcat.patterns import template_to_pattern

__all__ = [
    "IMPORTS_TAG",
    "Provider",
    "Site",
    "cannot_import",
    "missing_extension",
    "missing_module",
    "undefined_symbol",
]

#: The tag every import-error record carries (with ``errcat:generated``).
IMPORTS_TAG = "errcat:imports"

_SLUG_SEP = re.compile(r"[^a-z0-9]+")
#: Lines of context on each side of the site in ``sourceCode`` (37 lines in all).
_RADIUS = 18


@dataclass(frozen=True)
class Site:
    """Where a record points: a file of ``repo`` at release ``tag``, a line, the file's text."""

    repo: str
    tag: str
    file_path: str
    line: int
    text: str

    def snippet(self) -> tuple[int, int, str]:
        """The 37 lines around :attr:`line` (fewer at the ends of the file): start, end, code."""
        lines = self.text.splitlines()
        line = min(max(self.line, 1), max(len(lines), 1))
        start = max(1, line - _RADIUS)
        end = max(start, min(len(lines), line + _RADIUS))
        return start, end, "\n".join(lines[start - 1 : end])


@dataclass(frozen=True)
class Provider:
    """A distribution that installs a module: name, version, who requires it, what to install."""

    dist: str
    version: str
    #: ``sglang 0.5.23 requires sglang-kernel==0.4.10``, one line per requirer.
    required_by: tuple[str, ...]
    #: The requirement to install, ``sglang-kernel==0.4.10``.
    requirement: str


def _slug(text: str) -> str:
    return _SLUG_SEP.sub("-", text.lower()).strip("-")[:50].rstrip("-") or "error"


def _record_id(repo: str, file_path: str, template: str) -> str:
    key = "\0".join((repo, file_path, template))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _envelope(
    *,
    site: Site,
    error_class: str,
    template: str,
    documentation: str,
    solutions: Sequence[str],
    example_fix: str,
    tags: Sequence[str],
    when: datetime,
    prevention: Sequence[str] = (),
    trigger: str = "",
) -> RecordEnvelope:
    start, end, code = site.snippet()
    zero = "0" * 40
    record = ErrorRecord(
        id=_record_id(site.repo, site.file_path, template),
        repo=site.repo,
        slug=_slug(template),
        error_code=None,
        error_message=template,
        message_pattern=template_to_pattern(template),
        error_type="dependency",
        error_class=error_class,
        http_status=None,
        severity="error",
        file_path=site.file_path,
        line_number=min(max(site.line, start), end),
        source_code=code,
        source_code_start=start,
        source_code_end=end,
        github_url=(
            f"https://github.com/{site.repo}/blob/{site.tag}/{site.file_path}#L{start}-L{end}"
        ),
        documentation=documentation,
        trigger_scenarios=trigger,
        common_situations="",
        solutions=tuple(solutions),
        example_fix=example_fix,
        handling_strategy="",
        validation_code=None,
        type_guard=None,
        try_catch_pattern=None,
        prevention_tips=tuple(prevention),
        tags=(GENERATED_TAG, IMPORTS_TAG, *tags),
        background_tag=None,
        analyzed_sha=zero,
        analyzed_at=when,
        schema_version=2,
    )
    return RecordEnvelope(record=record, dataset_version=when)


def _literal(text: str) -> str:
    """``text`` as a template literal: braces doubled so that no placeholder is read."""
    return text.replace("{", "{{").replace("}", "}}")


def missing_module(
    module: str, providers: Sequence[Provider], site: Site, *, when: datetime | None = None
) -> RecordEnvelope:
    """``No module named 'module'``: install the distribution that provides it."""
    when = when or datetime.now(timezone.utc)
    main = providers[0]
    why = f" ({'; '.join(main.required_by)})" if main.required_by else ""
    others = [p for p in providers[1:] if p.dist != main.dist]
    also = (
        " It is also installed by " + ", ".join(f"{p.dist} {p.version}" for p in others) + "."
        if others
        else ""
    )
    documentation = (
        f"Python found no module {module!r} on its path. In the sglang and vllm stacks it is "
        f"installed by the distribution {main.dist} (its {main.version} wheel provides "
        f"{module!r}).{also} Either {main.dist} is not installed in the environment that runs "
        "the code, or pip installed it for another Python."
    )
    solutions = [
        f"Install the distribution that provides {module!r}: pip install {main.requirement!r}{why}",
        f"Check that pip and the failing program use the same Python: python -m pip show "
        f"{main.dist}",
    ]
    solutions += [f"Or install {p.requirement!r} ({p.dist} also provides it)" for p in others]
    example = f"# before\npython -c 'import {module}'\n# after\npip install {main.requirement!r}"
    return _envelope(
        site=site,
        error_class="ModuleNotFoundError",
        template=_literal(f"No module named {module!r}"),
        documentation=documentation,
        solutions=solutions,
        example_fix=example,
        tags=(f"dist:{main.dist}", HIDDEN_SITE_TAG),
        when=when,
        prevention=(
            f"Install the engine with its requirements (pip install the engine, not "
            f"its files), so that {main.dist} comes with it",
        ),
    )


def missing_extension(
    module: str,
    owner: Provider,
    torch_requirement: str,
    site: Site,
    *,
    when: datetime | None = None,
) -> RecordEnvelope:
    """``No module named 'vllm._C'``: the package's compiled part is missing or was built apart."""
    when = when or datetime.now(timezone.utc)
    package = module.split(".", 1)[0]
    documentation = (
        f"{module!r} is the compiled extension of {owner.dist} (its {owner.version} wheel ships "
        f"it, built against {torch_requirement}). Python could not load it: {owner.dist} was "
        f"installed without its compiled part (a source checkout run in place, a build for "
        f"another platform or CUDA), or the program imports {package!r} from a source "
        "directory that shadows the installed package."
    )
    solutions = [
        f"Reinstall {owner.dist} built for the installed torch: pip install --force-reinstall "
        f"{owner.requirement!r} {torch_requirement!r}",
        f"Run the program outside a {owner.dist} source checkout (or build it there with "
        "pip install -e .), so that the installed package is imported",
        f"Check the torch that is installed: python -c 'import torch; print(torch.__version__)' "
        f"(the {owner.dist} {owner.version} wheel needs {torch_requirement})",
    ]
    example = (
        f"# before\npip install {torch_requirement.split('==', maxsplit=1)[0]}  # another release\n"
        f"# after\npip install --force-reinstall {owner.requirement!r} {torch_requirement!r}"
    )
    return _envelope(
        site=site,
        error_class="ModuleNotFoundError",
        template=_literal(f"No module named {module!r}"),
        documentation=documentation,
        solutions=solutions,
        example_fix=example,
        tags=(f"dist:{owner.dist}", "abi-mismatch"),
        when=when,
    )


def undefined_symbol(
    library: str,
    owner: Provider,
    torch_requirement: str,
    site: Site,
    *,
    when: datetime | None = None,
) -> RecordEnvelope:
    """``.../vllm/_C.abi3.so: undefined symbol: ...``: built against another torch."""
    when = when or datetime.now(timezone.utc)
    documentation = (
        f"The dynamic loader could not resolve a symbol of {library}, the compiled extension "
        f"of {owner.dist} {owner.version}. It was built against {torch_requirement} and "
        "another torch is installed (or another CUDA runtime): C++ symbols of torch change "
        "between releases, so an extension loads only with the torch it was built for."
    )
    solutions = [
        f"Install the torch {owner.dist} {owner.version} was built for: pip install "
        f"{torch_requirement!r}",
        f"Or reinstall {owner.dist} for the installed torch: pip install --force-reinstall "
        f"--no-deps {owner.requirement!r} (a wheel built for that torch), or build it from "
        "source against it",
        "Read the symbol with c++filt to see which library it belongs to (a torch name, "
        "c10:: or at::, means a torch mismatch)",
    ]
    example = (
        f"# before\npip install torch  # the newest release\n"
        f"# after\npip install {torch_requirement!r} {owner.requirement!r}"
    )
    return _envelope(
        site=site,
        error_class="ImportError",
        template=f"{{path}}{_literal(library)}: undefined symbol: {{symbol}}",
        documentation=documentation,
        solutions=solutions,
        example_fix=example,
        tags=(f"dist:{owner.dist}", "abi-mismatch"),
        when=when,
    )


def cannot_import(
    module: str,
    history: NameHistory,
    site: Site,
    *,
    importers: Sequence[str] = (),
    required: Sequence[str] = (),
    when: datetime | None = None,
) -> RecordEnvelope:
    """``cannot import name 'Y' from 'X'``: which releases of X have Y, and what to install.

    ``importers`` are the engine files that import it (``sglang 0.5.23:
    python/sglang/srt/configs/model_config.py``); ``required`` what the engines
    require of the distribution (``sglang 0.5.23 requires transformers==5.19.0``).
    """
    when = when or datetime.now(timezone.utc)
    name, dist = history.name, history.dist
    where = f" {', '.join(importers)} import it." if importers else ""
    needs = f" {'; '.join(required)}." if required else ""
    status = history.status
    if status == "added":
        cause = f"The installed {dist} is older than {history.first}."
    elif status == "removed":
        cause = f"The installed {dist} is {history.removed_in} or newer."
    else:
        cause = f"The installed {dist} is a release without it."
    documentation = (
        f"Python imported {module} but found no name {name!r} in it. {history.summary()} "
        f"{cause}{where}{needs}"
    )
    if status == "removed":
        solutions = [
            f"Install a {dist} that still has {name}: pip install {history.requirement!r}",
            f"Or upgrade the package that imports {name} from {module} to a release written "
            f"for {dist} {history.removed_in} or newer",
        ]
    else:
        solutions = [f"Install a {dist} that has {name}: pip install {history.requirement!r}"]
    if required:
        solutions.append(f"Install what the engine requires: {'; '.join(required)}")
    solutions.append(f"Check the installed release: python -m pip show {dist}")
    example = (
        f"# before\npython -c 'from {module} import {name}'\n"
        f"# after\npip install {history.requirement!r}"
    )
    return _envelope(
        site=site,
        error_class="ImportError",
        template=_literal(f"cannot import name {name!r} from {module!r}"),
        documentation=documentation,
        solutions=solutions,
        example_fix=example,
        tags=(f"dist:{dist}", f"api:{status}"),
        when=when,
    )
