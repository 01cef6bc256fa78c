"""The Hugging Face Hub's refusals while weights download, in the HTTP client's words.

An engine downloads a model from the Hub (or a mirror set with ``HF_ENDPOINT``)
through huggingface_hub, whose ``hf_raise_for_status`` re-raises the client's
status error as ``HfHubHTTPError`` with the client's text: ``401 Client Error:
Unauthorized for url: https://huggingface.co/...`` (requests, huggingface_hub
before 1.0) or ``Client error '404 Not Found' for url 'https://huggingface.co/...'``
(httpx, 1.0 and later). The same words from the engine's own server are
:mod:`native_catalog.http`'s records; these, with the Hub's address written out,
say more and rank first, and their advice is about the model download: a token,
a gated model's licence, a repo id.

>>> sorted({s.template.split(" ")[0] for s in RECORDS})
['401', '403', '404', 'Client']
>>> len(RECORDS)
12
"""

from __future__ import annotations

from native_catalog.http_advice import by_code
from native_catalog.spec import Spec

__all__ = ["HOSTS", "RECORDS"]

HUB = "huggingface/huggingface_hub"
#: Where hf_raise_for_status re-raises a status it has no message of its own for.
_PATH = "src/huggingface_hub/utils/_http.py"
_SHA = "ee0a4510f4bc15e26cb722be2efc2bdb01383ca0"
_LINE = 928
#: The Hub and the mirror users set with HF_ENDPOINT most.
HOSTS = ("https://huggingface.co/", "https://hf-mirror.com/")

_SOURCES = (
    "https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/utils/_http.py",
    "https://huggingface.co/docs/hub/models-gated",
    "https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables",
)

_DOWNLOAD = (
    " This is the Hugging Face Hub (or the mirror HF_ENDPOINT names) answering the"
    " download of a model's files, not the engine's server answering a request."
)

#: status -> (documentation, solutions, example fix)
_ADVICE: dict[int, tuple[str, tuple[str, ...], str]] = {
    401: (
        "The Hub did not accept the request's credentials: no token was sent for a gated"
        " or private model, or the token is invalid or expired.",
        (
            "Log in (hf auth login; older releases: huggingface-cli login) or set HF_TOKEN"
            " in the engine's environment, a container's included",
            "For a gated model, accept its licence on the model's Hub page with the same account",
            "Check that the repo id is right: the Hub answers 401, not 404, for a repo it"
            " will not show you",
        ),
        "# before\nvllm serve meta-llama/Llama-3.1-8B-Instruct\n"
        "# after\nHF_TOKEN=hf_xxx vllm serve meta-llama/Llama-3.1-8B-Instruct",
    ),
    403: (
        "The Hub knew the token and refused it this model: the gated model's licence was not"
        " accepted (or not yet approved) for this account, or a fine-grained token lacks"
        " read access to gated repositories.",
        (
            "Accept the model's licence on its Hub page and wait for the approval",
            "Use a token with read access (a fine-grained token needs access to public gated"
            " repositories)",
        ),
        "# after accepting the licence on the model page\nexport HF_TOKEN=hf_xxx",
    ),
    404: (
        "The Hub has no such repository, revision or file: a misspelt repo id, a private"
        " repository without a token, or a local path that does not exist and was read as a"
        " repo id.",
        (
            "Check the repo id (organisation/name) on the Hub, and the revision if one is given",
            "For a local model, pass the path of an existing directory (an absolute path"
            " avoids reading it as a repo id)",
            "With the files already downloaded, set HF_HUB_OFFLINE=1 to use the cache only",
        ),
        "# before\npython -m sglang.launch_server --model-path models/qwen2.5-7b\n"
        "# after\npython -m sglang.launch_server --model-path /data/models/qwen2.5-7b",
    ),
}


#: The client's own class per form: a paste shows it when huggingface_hub let it through
#: (or printed its subclass, HfHubHTTPError).
_CLASSES = {"requests": "requests.exceptions.HTTPError", "httpx": "httpx.HTTPStatusError"}


def _spec(code: int, host: str, template: str, form: str) -> Spec:
    documentation, solutions, example_fix = _ADVICE[code]
    return Spec(
        kind="hf-hub-http",
        repo=HUB,
        path=_PATH,
        line=_LINE,
        sha=_SHA,
        error_class=_CLASSES[form],
        also_classes=(
            "huggingface_hub.errors.HfHubHTTPError",
            "huggingface_hub.utils._errors.HfHubHTTPError",
        ),
        template=template,
        documentation=f"HTTP {code} {by_code(code).phrase} from the Hugging Face Hub."
        f" {documentation}{_DOWNLOAD}",
        trigger="Starting an engine (or loading a tokenizer or config) with a model id the"
        " Hub refuses.",
        situations="Gated models (Llama, Gemma, ...) without an accepted licence or a"
        " token; misspelt ids; local paths that do not exist.",
        solutions=solutions,
        example_fix=example_fix,
        tags=("http", f"http-status-{code}", "huggingface-hub"),
        references=_SOURCES,
        slug=f"hf-hub-{code}-{form}" + ("-mirror" if "mirror" in host else ""),
    )


#: The Hub's 401, 403 and 404 in requests' and httpx's words, at the Hub and its mirror.
RECORDS: tuple[Spec, ...] = tuple(
    spec
    for code in _ADVICE
    for host in HOSTS
    for spec in (
        _spec(code, host, f"{code} Client Error: {{reason}} for url: {host}{{path}}", "requests"),
        _spec(code, host, f"Client error '{code} {{reason}}' for url '{host}{{path}}'", "httpx"),
    )
)
