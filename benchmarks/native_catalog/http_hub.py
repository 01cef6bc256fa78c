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

The Hub's rate limit (429) and its own outages (500, 502, 503, 504) are the
Hub's too: an engine that was starting gets them while it downloads, and the
engine's server-side advice for the same status (a server still loading, a dead
engine core) would send the user to the wrong log.

>>> sorted({s.template.split(" ")[0] for s in RECORDS})
['401', '403', '404', '429', '500', '502', '503', '504', 'Client', 'Server']
>>> len(RECORDS)
32
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
    "https://huggingface.co/docs/hub/rate-limits",
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
    429: (
        "The Hub rate-limited this address: it counts requests per 5-minute window, with"
        " lower limits for requests without a token (many workers or containers starting at"
        " once behind one address reach them quickest).",
        (
            "Send a token: set HF_TOKEN in the engine's environment (a container's included);"
            " logged-in requests get higher limits",
            "Download the model once (hf download <repo id>, older releases:"
            " huggingface-cli download) and start every worker from that cache with"
            " HF_HUB_OFFLINE=1, or pass the local directory as the model",
            "Wait for the window to pass before retrying",
        ),
        "# download once, then start offline from the cache\nhf download Qwen/Qwen3-8B\n"
        "HF_HUB_OFFLINE=1 vllm serve Qwen/Qwen3-8B",
    ),
}

#: The Hub's own outages: what to do is the same for each.
_OUTAGE = (
    (
        "If the model's files are already in the cache, start with HF_HUB_OFFLINE=1 so that"
        " nothing is asked of the Hub",
        "Otherwise retry later, or download through a mirror by setting HF_ENDPOINT",
        "To be independent of the Hub, download the model to a directory once and pass that"
        " path as the model",
    ),
    "# the files are cached already\nHF_HUB_OFFLINE=1 python -m sglang.launch_server"
    " --model-path Qwen/Qwen3-8B",
)
for _code, _what in (
    (500, "failed on its side"),
    (502, "could not reach its backend (a proxy's answer)"),
    (503, "is unavailable for now (maintenance or overload)"),
    (504, "timed out behind its proxy"),
):
    _ADVICE[_code] = (f"The Hub {_what}: nothing in the request is wrong.", *_OUTAGE)


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
        " Hub refuses."
        if code < 429
        else "Starting an engine (or loading a tokenizer or config) while the Hub"
        + (" rate-limits the address." if code == 429 else " is failing."),
        situations="Gated models (Llama, Gemma, ...) without an accepted licence or a"
        " token; misspelt ids; local paths that do not exist."
        if code < 429
        else "Many workers or containers downloading at once; runs without a token."
        if code == 429
        else "Hub incidents; corporate proxies in front of the Hub.",
        solutions=solutions,
        example_fix=example_fix,
        tags=("http", f"http-status-{code}", "huggingface-hub"),
        references=_SOURCES,
        slug=f"hf-hub-{code}-{form}" + ("-mirror" if "mirror" in host else ""),
    )


def _side(code: int) -> tuple[str, str]:
    """How requests and httpx name a status's side: ``Client``/``client`` or ``Server``/``server``."""
    return ("Client", "client") if code < 500 else ("Server", "server")


#: The Hub's statuses in requests' and httpx's words, at the Hub and its mirror.
RECORDS: tuple[Spec, ...] = tuple(
    spec
    for code in sorted(_ADVICE)
    for host in HOSTS
    for spec in (
        _spec(
            code,
            host,
            f"{code} {_side(code)[0]} Error: {{reason}} for url: {host}{{path}}",
            "requests",
        ),
        _spec(
            code,
            host,
            f"{_side(code)[1].capitalize()} error '{code} {{reason}}' for url '{host}{{path}}'",
            "httpx",
        ),
    )
)
