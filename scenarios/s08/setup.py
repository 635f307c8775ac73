import tempfile
from copy import deepcopy
from pathlib import Path

from s08.core.runtime import archive_writer, prepare_context, split_history, trim_results

question = "先检查，再获准运行。"


def pair(number, text, error=False):
    """One complete exchange: an assistant tool_use and the user's tool_result."""
    call_id = "call_" + str(number)
    return [
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": call_id, "name": "read_file", "input": {"path": "notes.txt"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error}]},
    ]


messages = [{"role": "user", "content": question}] + pair(1, "old" * 400) + pair(2, "近期证据。")
if scenario == "pending":
    messages.pop()
if scenario == "mismatch":
    messages[-1]["content"][0]["tool_use_id"] = "wrong"
if scenario == "multi":
    messages[1]["content"].append(
        {"type": "tool_use", "id": "second", "name": "read_file", "input": {"path": "other.txt"}})
    messages[2]["content"].append(
        {"type": "tool_result", "tool_use_id": "second", "content": "另一条结果", "is_error": False})
if scenario == "error":
    messages[2]["content"][0]["is_error"] = True
if scenario == "recent":
    messages[-1]["content"][0]["content"] = "R" * 1600
if scenario == "fit":
    messages = [{"role": "user", "content": question}] + pair(1, "短结果。")
if scenario == "trim":
    messages = ([{"role": "user", "content": question}]
                + pair(1, "A" * 1200) + pair(2, "B" * 1200) + pair(3, "近期证据。"))
if scenario in ("summary", "bad_summary", "archive_error", "exhausted"):
    messages = [{"role": "user", "content": question}]
    for i in range(4):
        messages += pair(i, "旧" * 180)
    messages += pair(4, "近期证据。")
if scenario == "recent_large":
    messages = [{"role": "user", "content": question}] + pair(1, "R" * 2400)
before = deepcopy(messages)
state = {"archives": [], "summaries": 0, "max_summaries": 0 if scenario == "exhausted" else 2}
_temp = tempfile.TemporaryDirectory(prefix="lesson8-")

archive = archive_writer(Path(_temp.name))
if scenario == "archive_error":
    def archive(_):
        raise OSError("教学归档失败")


def summarize(prefix):
    """Stand-in summary model: fixed text, or an empty one for bad_summary."""
    return "" if scenario == "bad_summary" else "旧正文已归档；仍须检查当前文件并取得运行许可。"
