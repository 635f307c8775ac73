"""--live through the real anthropic SDK on a mock HTTP transport: no network.

The fake API answers with the same stand-ins, so the SDK path must reproduce
the offline counts exactly: 9 parent + 3 child + 1 summary = 13 requests.
"""
import json
from pathlib import Path

import anthropic
import httpx2
import pytest

from s08.practice.assembly import CHILD_SYSTEM, MAIN_SYSTEM, MAIN_TOOLS, SUMMARY_SYSTEM
from s08.practice.live import DEFAULT_MODEL, SUMMARY_MAX_TOKENS, LiveSetupError, live_models, make_client
from s08.practice.session import run_practice
from s08.practice.standins import SUMMARY, child_standin, main_standin
from s08.practice.workspace import QUESTION, RUN_MARKER, create_workspace


class FakeAPI:
    """A Messages endpoint that routes by system prompt and records every body."""

    def __init__(self, summary_stop="end_turn", main_override=None):
        self.bodies = []
        self.summary_stop = summary_stop
        self.main_override = main_override

    def kind(self, body):
        return {MAIN_SYSTEM: "main", CHILD_SYSTEM: "child", SUMMARY_SYSTEM: "summary"}[body["system"]]

    def __call__(self, request):
        assert request.url.path == "/v1/messages" and request.headers["x-api-key"] == "test"
        body = json.loads(request.content)
        self.bodies.append(body)
        kind = self.kind(body)
        if kind == "summary":
            reply = {"content": [{"type": "text", "text": SUMMARY}], "stop_reason": self.summary_stop}
        elif kind == "child":
            reply = child_standin(body)
        elif self.main_override:
            return self.main_override(body)
        else:
            reply = main_standin(body)
        return httpx2.Response(200, json={
            "id": f"msg_{len(self.bodies)}", "type": "message", "role": "assistant", "model": body["model"],
            "content": reply["content"], "stop_reason": reply["stop_reason"], "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}})

    def count(self, kind):
        return sum(1 for body in self.bodies if self.kind(body) == kind)


def live_run(root, api, decision="allow", **options):
    client = anthropic.Anthropic(api_key="test", max_retries=0,
                                 http_client=httpx2.Client(transport=httpx2.MockTransport(api)))
    workdir = create_workspace(Path(root) / "work")
    report = run_practice(workdir, live_models(client=client), lambda command: decision == "allow",
                          log=lambda line: None, **options)
    return workdir, report


@pytest.mark.parametrize("decision", ["allow", "deny"])
def test_sdk_path_sends_thirteen_requests(tmp_path, decision):
    api = FakeAPI()
    workdir, report = live_run(tmp_path, api, decision)
    assert len(api.bodies) == 13
    assert (api.count("main"), api.count("child"), api.count("summary")) == (9, 3, 1)
    assert (report.parent_calls, report.child_calls, report.summary_calls) == (9, 3, 1)
    assert report.status == "answered"
    assert (workdir / RUN_MARKER).exists() is (decision == "allow")
    assert report.verdict[0] == ("match" if decision == "allow" else "not_run")


def test_sdk_requests_carry_the_assembled_system_tools_and_plan(tmp_path):
    api = FakeAPI()
    live_run(tmp_path, api)
    for body in api.bodies:
        assert body["model"] == DEFAULT_MODEL
        if api.kind(body) == "main":
            assert [tool["name"] for tool in body["tools"]] == [tool["name"] for tool in MAIN_TOOLS]
            assert body["messages"][-1]["content"][-1]["text"].startswith("[当前计划")
        elif api.kind(body) == "child":
            assert [tool["name"] for tool in body["tools"]] == ["read_file"]
        else:
            assert "tools" not in body and body["max_tokens"] == SUMMARY_MAX_TOKENS
            assert body["messages"][0]["content"].startswith("以下是需要压缩的旧历史")


def test_truncated_summary_is_refused_and_never_committed(tmp_path):
    api = FakeAPI(summary_stop="max_tokens")
    workdir, report = live_run(tmp_path, api)
    assert report.status == "context_error"
    assert "max_tokens" in report.error and "end_turn" in report.error
    assert (api.count("main"), api.count("summary")) == (3, 1)
    assert report.messages[0]["content"] == QUESTION
    assert not (workdir / RUN_MARKER).exists()


def test_api_error_is_a_model_error(tmp_path):
    def refuse(body):
        return httpx2.Response(400, json={"type": "error", "error": {"type": "invalid_request_error",
                                                                      "message": "bad request"}})
    api = FakeAPI(main_override=refuse)
    _, report = live_run(tmp_path, api)
    assert report.status == "model_error"
    assert report.parent_calls == 1 and len(api.bodies) == 1
    assert "bad request" in report.error


def test_unknown_block_kinds_are_refused(tmp_path):
    def thinking(body):
        return httpx2.Response(200, json={
            "id": "msg_t", "type": "message", "role": "assistant", "model": body["model"],
            "content": [{"type": "thinking", "thinking": "…", "signature": "s"}],
            "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}})
    _, report = live_run(tmp_path, FakeAPI(main_override=thinking))
    assert report.status == "model_error" and "thinking" in report.error


def test_missing_key_is_a_setup_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(LiveSetupError, match="ANTHROPIC_API_KEY"):
        make_client()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "  ")
    with pytest.raises(LiveSetupError):
        live_models()


def test_key_builds_an_sdk_client_without_sending_anything(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert isinstance(make_client(), anthropic.Anthropic)
