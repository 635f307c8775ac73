"""The seed's 14 scenario setups × the three calls, in CPython and in Pyodide.

Each row names the outcome the lesson promises: the partition, which old
bodies became snapshot markers, the exact error message, how many archives
were written and how many summary attempts were counted.
"""
import json
import re
from pathlib import Path

import pytest
from lesson_harness import run_plain

from stepwise import scenario

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = scenario.load(REPO / "scenarios" / "s08.toml")
HARNESS = (Path(__file__).parent / "lesson_harness.py").read_text(encoding="utf-8")

PENDING = ("error", "工具结果尚未收齐，不能压缩。")
MISMATCH = ("error", "每个工具请求必须有且只有一个同ID结果。")

# case -> (outcome, archives, summaries); outcomes:
#   ("parts", older, recent) for split_history
#   ("history", first, bodies): first is "question" or "summary"; bodies lists each tool_result
#   as "M" (replaced by a snapshot marker) or "K" (kept verbatim)
#   ("error", message) / ("setup_error", text)
EXPECTED = {
    "split_history": {
        "normal": (("parts", 1, 1), 0, 0),
        "pending": (PENDING, 0, 0),
        "mismatch": (MISMATCH, 0, 0),
        "multi": (("parts", 1, 1), 0, 0),
        "error": (("parts", 1, 1), 0, 0),
        "recent": (("parts", 1, 1), 0, 0),
        "fit": (("parts", 0, 1), 0, 0),
        "trim": (("parts", 2, 1), 0, 0),
        "summary": (("parts", 4, 1), 0, 0),
        "bad_summary": (("parts", 4, 1), 0, 0),
        "archive_error": (("parts", 4, 1), 0, 0),
        "exhausted": (("parts", 4, 1), 0, 0),
        "recent_large": (("parts", 0, 1), 0, 0),
        "old": (("parts", 1, 1), 0, 0),
    },
    "trim_results": {
        "normal": (("history", "question", "MK"), 0, 0),
        "pending": (PENDING, 0, 0),
        "mismatch": (MISMATCH, 0, 0),
        "multi": (("history", "question", "MKK"), 0, 0),
        "error": (("history", "question", "MK"), 0, 0),
        "recent": (("history", "question", "MK"), 0, 0),
        "fit": (("history", "question", "K"), 0, 0),
        "trim": (("history", "question", "MMK"), 0, 0),
        "summary": (("history", "question", "KKKKK"), 0, 0),
        "bad_summary": (("history", "question", "KKKKK"), 0, 0),
        "archive_error": (("setup_error", "OSError: 教学归档失败"), 0, 0),
        "exhausted": (("history", "question", "KKKKK"), 0, 0),
        "recent_large": (("history", "question", "K"), 0, 0),
        "old": (("history", "question", "MK"), 0, 0),
    },
    "prepare_context": {
        "normal": (("history", "question", "MK"), 1, 0),
        "pending": (PENDING, 0, 0),
        "mismatch": (MISMATCH, 0, 0),
        "multi": (("history", "question", "MKK"), 1, 0),
        "error": (("history", "question", "MK"), 1, 0),
        "recent": (("error", "候选历史仍超限或没有变小，不提交。"), 1, 1),
        "fit": (("history", "question", "K"), 0, 0),
        "trim": (("history", "question", "MMK"), 1, 0),
        "summary": (("history", "summary", "K"), 1, 1),
        "bad_summary": (("error", "摘要必须是1到1000字符的非空文本。"), 1, 1),
        "archive_error": (("error", "教学归档失败"), 0, 0),
        "exhausted": (("error", "摘要预算用完，交回宿主。"), 1, 0),
        "recent_large": (("error", "最近交接本身超限；缩小工具输出，不能拆开它。"), 1, 0),
        "old": (("history", "question", "MK"), 1, 0),
    },
}
ROWS = [(function, case) for function, cases in EXPECTED.items() for case in cases]
MARKER = re.compile(r"^\[旧正文已移出；宿主快照 RECEIPT，消息(\d+)/块(\d+)，ID=([^。]+)。此标记不是执行结果。\]$")


def describe(outcome: dict) -> tuple:
    if "setup_error" in outcome:
        return ("setup_error", outcome["setup_error"])
    observed = outcome["observed"]
    if isinstance(observed, dict) and "error" in observed:
        return ("error", observed["error"])
    if isinstance(observed, dict):
        return ("parts", len(observed["older"]), len(observed["recent"]))
    first = "summary" if "[历史摘要，仅供参考]" in observed[0]["content"] else "question"
    bodies = "".join("M" if MARKER.match(block["content"]) else "K"
                     for message in observed[1:] if message["role"] == "user"
                     for block in message["content"])
    return ("history", first, bodies)


def test_every_seed_setup_is_a_case():
    assert set(SCENARIOS.labels) == set(EXPECTED["split_history"]) and len(SCENARIOS.labels) == 14


@pytest.mark.parametrize(("function", "case"), ROWS)
def test_cpython_outcome(function, case):
    outcome = run_plain(*SCENARIOS.code(function, case))
    expected, archives, summaries = EXPECTED[function][case]
    assert describe(outcome) == expected
    if "setup_error" in outcome:
        return
    assert outcome["unchanged"], "the input history must never change"
    assert outcome["stdout"] == (expected[1] if expected[0] == "error" else "已生成候选；原历史保持不变。") + "\n"
    assert (outcome["archives"], outcome["summaries"]) == (archives, summaries)
    assert outcome["receipt_is_file"], "each receipt is the file name of one snapshot"
    assert all(f["is_history"] for f in outcome["files"]), "a snapshot holds exactly the pre-compaction history"


def test_marker_names_receipt_position_and_id():
    observed = run_plain(*SCENARIOS.code("trim_results", "trim"))["observed"]
    bodies = [m["content"][0]["content"] for m in observed[1:] if m["role"] == "user"]
    markers = [MARKER.match(body).groups() for body in bodies[:2]]
    assert bodies[2] == "近期证据。"
    assert markers == [("2", "0", "call_1"), ("4", "0", "call_2")]


def test_trim_keeps_roles_ids_and_error_flag():
    observed = run_plain(*SCENARIOS.code("trim_results", "error"))["observed"]
    block = observed[2]["content"][0]
    assert (block["tool_use_id"], block["is_error"], observed[2]["role"]) == ("call_1", True, "user")
    assert observed[1]["content"][0] == {"type": "tool_use", "id": "call_1", "name": "read_file",
                                         "input": {"path": "notes.txt"}}


def test_summary_rebuilds_first_message_from_host_question():
    observed = run_plain(*SCENARIOS.code("prepare_context", "summary"))["observed"]
    assert observed[0]["content"] == (
        "先检查，再获准运行。\n\n[历史摘要，仅供参考]\n旧正文已归档；仍须检查当前文件并取得运行许可。"
        "\n[压缩前快照：RECEIPT；旧规范需重新加载；旧允许不授权本次运行。]")
    assert [m["content"][0]["id" if m["role"] == "assistant" else "tool_use_id"] for m in observed[1:]] == [
        "call_4", "call_4"]


@pytest.mark.parametrize("function", list(EXPECTED))
def test_pyodide_matches_cpython(pyodide, function):
    """The unmodified lesson file gives the same outcomes in Pyodide (Python 3.14)."""
    assert pyodide.python_version.startswith("3.14")
    cases = [SCENARIOS.code(function, case) for case in EXPECTED[function]]
    code = HARNESS + f"\nimport json\nresult = json.dumps([run_plain(s, e) for s, e in {cases!r}])"
    in_pyodide = json.loads(pyodide.run(code))
    in_cpython = [run_plain(setup, entry) for setup, entry in cases]
    for case, remote, local in zip(EXPECTED[function], in_pyodide, in_cpython, strict=True):
        assert remote == local, f"{function}/{case} differs between Pyodide and CPython"
        assert describe(remote) == EXPECTED[function][case][0]
