"""The s01 loop: unchanged without prepare, and a commit point with it."""
import ast
import inspect
from copy import deepcopy

import pytest

import s01.core.runtime as runtime
from s01.core.runtime import prepare_messages, run_loop
from s08.core.runtime import archive_writer, prepare_context, split_history

QUESTION = "先检查，再获准运行。"


def tool_call(call_id, name="read_file", arguments=None, text="读文件。"):
    return {"content": [{"type": "text", "text": text},
                        {"type": "tool_use", "id": call_id, "name": name, "input": arguments or {"path": "a"}}]}


def answer(text="完成。"):
    return {"content": [{"type": "text", "text": text}]}


def scripted(*responses):
    """An ask() that returns the given responses in order and records what it saw."""
    seen = []

    def ask(messages):
        seen.append(deepcopy(messages))
        return responses[len(seen) - 1]
    ask.seen = seen
    return ask


def echo_tools(size=10):
    return {"read_file": lambda arguments: "x" * size}


def test_without_prepare_runs_tools_until_the_answer():
    messages = [{"role": "user", "content": QUESTION}]
    ask = scripted(tool_call("c1"), tool_call("c2"), answer("好了"))
    result = run_loop(messages, ask, echo_tools(), max_calls=5)
    assert result == {"status": "answered", "text": "好了", "calls": 3}
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user", "assistant"]
    assert messages[2]["content"] == [{"type": "tool_result", "tool_use_id": "c1", "content": "x" * 10,
                                       "is_error": False}]
    assert split_history(messages[:-1])["recent"][0][0]["content"][1]["id"] == "c2"


def test_tool_failures_become_error_results_with_the_same_id():
    def broken(arguments):
        raise OSError("磁盘坏了")
    messages = [{"role": "user", "content": QUESTION}]
    ask = scripted(tool_call("c1"), tool_call("c2", name="nope"), answer())
    result = run_loop(messages, ask, {"read_file": broken}, max_calls=5)
    assert result["status"] == "answered"
    first, second = messages[2]["content"][0], messages[4]["content"][0]
    assert (first["tool_use_id"], first["is_error"]) == ("c1", True)
    assert "磁盘坏了" in first["content"]
    assert (second["tool_use_id"], second["is_error"]) == ("c2", True)
    assert "nope" in second["content"]


def test_model_error_counts_the_failed_request_and_keeps_complete_groups():
    def ask(messages):
        if len(messages) > 1:
            raise ConnectionError("网络断了")
        return tool_call("c1")
    messages = [{"role": "user", "content": QUESTION}]
    result = run_loop(messages, ask, echo_tools(), max_calls=5)
    assert result["status"] == "model_error"
    assert result["calls"] == 2
    assert "网络断了" in result["error"]
    assert len(messages) == 3


@pytest.mark.parametrize("bad", [None, {"content": []}, {"content": [{"type": "image"}]},
                                 {"content": [{"type": "tool_use", "id": "", "name": "x", "input": {}}]},
                                 {"content": [{"type": "tool_use", "id": "d", "name": "x", "input": {}},
                                              {"type": "tool_use", "id": "d", "name": "x", "input": {}}]}])
def test_malformed_replies_never_enter_the_history(bad):
    messages = [{"role": "user", "content": QUESTION}]
    result = run_loop(messages, scripted(bad), echo_tools(), max_calls=2)
    assert result["status"] == "model_error"
    assert messages == [{"role": "user", "content": QUESTION}]


def test_max_calls_is_the_parent_request_budget():
    messages = [{"role": "user", "content": QUESTION}]
    ask = scripted(*(tool_call(f"c{i}") for i in range(3)))
    assert run_loop(messages, ask, echo_tools(), max_calls=3)["status"] == "max_calls"
    assert len(ask.seen) == 3
    with pytest.raises(ValueError, match="max_calls"):
        run_loop(messages, ask, echo_tools(), max_calls=0)


@pytest.mark.parametrize("prepare", [
    lambda messages: tuple(messages),
    lambda messages: None,
    lambda messages: 1 / 0,
])
def test_bad_preparation_stops_before_the_request(prepare):
    messages = [{"role": "user", "content": QUESTION}]
    ask = scripted(tool_call("c1"), answer())
    calls = []

    def counted(history):
        calls.append(len(history))
        return prepare(history) if len(calls) > 1 else history
    result = run_loop(messages, ask, echo_tools(), max_calls=5, prepare=counted)
    assert result["status"] == "context_error"
    assert result["text"] == "上下文准备失败；原历史保留。"
    assert result["calls"] == 1
    assert len(ask.seen) == 1
    assert len(messages) == 3


def test_prepare_gets_a_copy_so_a_failing_prepare_changes_nothing():
    messages = [{"role": "user", "content": QUESTION}]
    run_loop(messages, scripted(tool_call("c1"), answer()), echo_tools(), max_calls=5)
    messages = messages[:3]
    before = deepcopy(messages)

    def vandal(history):
        history.clear()
        raise ValueError("半途失败")
    result = run_loop(messages, scripted(answer()), echo_tools(), max_calls=5, prepare=vandal)
    assert result["status"] == "context_error"
    assert result["error"] == "半途失败"
    assert result["calls"] == 0
    assert messages == before


def test_successful_preparation_replaces_the_active_list_in_place():
    messages = [{"role": "user", "content": QUESTION}]
    active = messages
    seen_by_prepare = []

    def shorten(history):
        seen_by_prepare.append(len(history))
        if len(history) > 1:
            history[-1]["content"][0]["content"] = "短"
        return history
    ask = scripted(tool_call("c1"), answer())
    result = run_loop(messages, ask, echo_tools(size=50), max_calls=5, prepare=shorten)
    assert result["status"] == "answered"
    assert messages is active
    assert seen_by_prepare == [1, 3]
    assert ask.seen[1][2]["content"][0]["content"] == "短"
    assert messages[2]["content"][0]["content"] == "短"


def test_loop_with_prepare_context_archives_before_it_commits(tmp_path):
    """The s08 functions plugged into the loop: snapshot first, trimmed history committed."""
    state = {"archives": [], "summaries": 0, "max_summaries": 1}
    archive = archive_writer(tmp_path)

    def prepare(history):
        return prepare_context(history, QUESTION, state, archive, lambda prefix: "摘要。", budget=2000)
    messages = [{"role": "user", "content": QUESTION}]
    ask = scripted(tool_call("c1"), tool_call("c2"), answer())
    result = run_loop(messages, ask, echo_tools(size=1000), max_calls=5, prepare=prepare)
    assert result["status"] == "answered"
    assert len(state["archives"]) == 1 and state["summaries"] == 0
    assert (tmp_path / state["archives"][0]).exists()
    assert messages[2]["content"][0]["content"].startswith("[旧正文已移出；宿主快照 " + state["archives"][0])
    assert messages[2]["content"][0]["tool_use_id"] == "c1"
    assert messages[4]["content"][0]["content"] == "x" * 1000


def test_prepare_messages_attaches_the_plan_to_a_copy_only():
    plan = [{"step": "查日志", "status": "completed"}, {"step": "运行", "status": "in_progress"},
            {"step": "核对", "status": "pending"}]
    history = [{"role": "user", "content": QUESTION}]
    request = prepare_messages(history, plan)
    assert history == [{"role": "user", "content": QUESTION}]
    assert request[0]["content"][0] == {"type": "text", "text": QUESTION}
    assert request[0]["content"][1]["text"].splitlines()[1:] == ["[x] 查日志", "[>] 运行", "[ ] 核对"]
    assert prepare_messages(history) == history
    assert prepare_messages(history) is not history


def test_a_prepare_that_returns_no_list_is_refused_with_the_lessons_words_and_nothing_is_committed():
    """The commit point: a candidate that is no list never replaces the history, and the request that
    would have followed is never sent (the text and reason the lesson's prose quotes)."""
    messages = [{"role": "user", "content": QUESTION}]
    run_loop(messages, scripted(tool_call("c1"), answer()), echo_tools(), max_calls=5)
    messages = messages[:3]
    before = deepcopy(messages)
    ask = scripted(answer())
    result = run_loop(messages, ask, echo_tools(), max_calls=5, prepare=lambda history: tuple(history))
    assert (result["status"], result["text"]) == ("context_error", "上下文准备失败；原历史保留。")
    assert result["error"] == "prepare必须返回候选消息列表"
    assert messages == before and ask.seen == []


def test_s01_runtime_imports_only_the_standard_library():
    tree = ast.parse(inspect.getsource(runtime))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported <= {"copy", "collections.abc"}
