"""Verify the run from evidence still in the active history, never from a summary.

A summary may say "expected output is 42"; that is a claim, not evidence. The
verdict needs the complete expected.txt body and the run's real output as
tool results in the history the next request would carry.
"""
import json

from .tools import COMMAND
from .workspace import EXPECTED

PLACEHOLDER = "[旧正文已移出；"


def exchanges(messages: list) -> list[tuple[dict, dict]]:
    """Every (tool_use, tool_result) pair in the active history, oldest first."""
    uses, pairs = {}, []
    for message in messages:
        if type(message.get("content")) is not list:
            continue
        for block in message["content"]:
            if block.get("type") == "tool_use":
                uses[block["id"]] = block
            elif block.get("type") == "tool_result" and block["tool_use_id"] in uses:
                pairs.append((uses[block["tool_use_id"]], block))
    return pairs


def body_in_history(messages: list, path: str) -> str | None:
    """The latest complete body read from path, or None if only a placeholder or nothing is left."""
    found = None
    for use, result in exchanges(messages):
        if (use["name"] == "read_file" and use["input"].get("path") == path
                and not result["is_error"] and not result["content"].startswith(PLACEHOLDER)):
            found = result["content"]
    return found


def run_in_history(messages: list) -> dict | None:
    """The latest run_program result: {"ran": bool, ...}, or None if it never happened."""
    found = None
    for use, result in exchanges(messages):
        if use["name"] != "run_program" or result["content"].startswith(PLACEHOLDER):
            continue
        if result["is_error"]:
            found = {"ran": False, "reason": result["content"]}
        else:
            found = {"ran": True, **json.loads(result["content"])}
    return found


def same_output(actual: str, expected: str) -> bool:
    """Whole-output equality; only line endings are normalised, so one extra line differs."""
    return actual.replace("\r\n", "\n") == expected.replace("\r\n", "\n")


def verdict(messages: list) -> tuple[str, str]:
    """(kind, message) with kind in match, mismatch, not_run, no_evidence."""
    run = run_in_history(messages)
    if run is None:
        return "not_run", f"没有 {COMMAND} 的运行结果；未核对实际输出。"
    if not run["ran"]:
        return "not_run", f"程序没有运行（{run['reason']}）；未核对实际输出。"
    expected = body_in_history(messages, EXPECTED)
    if expected is None:
        return "no_evidence", "缺少依据：完整的 expected.txt 已不在活跃历史中，不能凭摘要声称一致。"
    if run["exit_code"] == 0 and same_output(run["stdout"], expected):
        lines = len(expected.splitlines())
        return "match", f"实际输出与 expected.txt 完整预期一致（{lines}行）：{run['stdout'].strip()}"
    return "mismatch", (f"不一致：退出码 {run['exit_code']}，实际输出 {run['stdout']!r}，"
                        f"完整预期 {expected!r}。")
