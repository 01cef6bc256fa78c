"""Dynamo's fake-tensor run failing, in errcat-data-torch (stack_curated.torch_compile, by hand).

``run_node`` builds the text in a nested helper, so the torch package had no record of it;
vLLM compiles every model by default, so its users paste it (vllm#38884, even).
"""

from __future__ import annotations

import errcat
from conftest import stack_package_catalog

LINE = (
    "torch._dynamo.exc.TorchRuntimeError: Dynamo failed to run FX node with fake tensors:"
    " call_function <built-in function mul>(*(FakeTensor(..., size=(1, 8, 64, 64)),"
    " FakeTensor(..., size=(1, 1, 64, 32))), **{}): got RuntimeError('The size of tensor a"
    " (64) must match the size of tensor b (32) at non-singleton dimension 3')"
)


def test_the_fake_tensor_failure_gets_the_dynamo_record_with_enforce_eager() -> None:
    match = errcat.match_error(LINE, catalog=stack_package_catalog("torch"))
    assert match is not None
    assert match.record.file_path == "torch/_dynamo/utils.py"
    assert any("--enforce-eager" in s for s in match.record.solutions)


def test_the_text_without_the_dynamo_sentence_is_not_the_dynamo_record() -> None:
    match = errcat.match_error(
        "RuntimeError: The size of tensor a (64) must match the size of tensor b (32) at"
        " non-singleton dimension 3",
        catalog=stack_package_catalog("torch"),
    )
    assert match is None or match.record.file_path != "torch/_dynamo/utils.py"
