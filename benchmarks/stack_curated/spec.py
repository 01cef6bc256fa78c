"""One hand-written stack record, compactly, and how it becomes a schemaVersion 2 envelope.

The stack's data packages are mined from wheels; a few messages that users
paste are not raised by a ``raise`` a miner can read (argparse prints them
through ``parser.error``, pydantic-core renders them in Rust, the dynamic
loader writes ``undefined symbol``). :class:`Curated` names where such a
message is made (repository, path, line, the revision read) and the advice, in
errcat's own words. Every record is tagged :data:`CURATED_TAG`, so a rebuild
can tell it from mined ones and replace it.

>>> spec = Curated(
...     repo="python/cpython",
...     path="Lib/argparse.py",
...     line=1871,
...     revision="v3.11.7",
...     error_class="SystemExit",
...     template="{prog}: error: unrecognized arguments: {args}",
...     documentation="The command line holds a flag the program does not know.",
...     solutions=("Run the program with --help",),
...     example_fix="vllm serve --help",
... )
>>> env = spec.envelope()
>>> env.record.message_pattern, env.record.tags
('(.+?): error: unrecognized arguments: (.+?)', ('errcat:stack:curated',))
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.mine.records import github_url, record_id
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.slugs import slugify

__all__ = ["ANALYZED_AT", "CURATED_TAG", "Curated"]

#: When these records were written (their analyzedAt and datasetVersion).
ANALYZED_AT = "2026-12-02T00:00:00Z"
#: The tag of every hand-written record of a stack package.
CURATED_TAG = "errcat:stack:curated"


@dataclass(frozen=True)
class Curated:
    """A hand-written record in the few fields that differ between records."""

    repo: str
    path: str
    line: int
    #: The tag or commit the path and line were read at (the link points there).
    revision: str
    error_class: str
    template: str
    documentation: str
    solutions: tuple[str, ...]
    example_fix: str
    #: A hand-written regex when the template's own pattern is not the right one.
    pattern: str | None = None
    error_type: str = "configuration"
    trigger: str = ""
    prevention: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    references: tuple[str, ...] = ()

    def envelope(self) -> RecordEnvelope:
        """The record as an envelope (validated as any record of a catalog is)."""
        documentation = self.documentation
        if self.references:
            documentation += "\n\nSources: " + " ; ".join(self.references)
        sha = self.revision if len(self.revision) == 40 else "0" * 40
        record = {
            "id": record_id(self.repo, self.path, self.template),
            "repo": self.repo,
            "slug": slugify(self.template),
            "errorCode": None,
            "errorMessage": self.template,
            "messagePattern": self.pattern or template_to_pattern(self.template),
            "errorType": self.error_type,
            "errorClass": self.error_class,
            "httpStatus": None,
            "severity": "error",
            "filePath": self.path,
            "lineNumber": self.line,
            "sourceCode": "",
            "sourceCodeStart": self.line,
            "sourceCodeEnd": self.line,
            "githubUrl": github_url(self.repo, self.revision, self.path, self.line, self.line),
            "documentation": documentation,
            "triggerScenarios": self.trigger,
            "commonSituations": "",
            "solutions": list(self.solutions),
            "exampleFix": self.example_fix,
            "handlingStrategy": "configuration",
            "validationCode": None,
            "typeGuard": None,
            "tryCatchPattern": None,
            "preventionTips": list(self.prevention),
            "tags": [*self.tags, CURATED_TAG],
            "backgroundTag": None,
            "analyzedSha": sha,
            "analyzedAt": ANALYZED_AT,
            "schemaVersion": 2,
        }
        return RecordEnvelope.model_validate({"record": record, "datasetVersion": ANALYZED_AT})
