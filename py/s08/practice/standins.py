"""Fixed-response stand-ins for the main, child and summary models.

The main stand-in finds its place from the IDs of the latest tool results in
the request, not from a counter or the first message, so it carries on after
the history has been summarised. It proves the host's plumbing, not that a
real model remembers everything: it re-reads the rules whenever their full
text is no longer in the active history, and its final answer uses only the
evidence still there.
"""
from .evidence import body_in_history, verdict
from .tools import COMMAND
from .workspace import EXPECTED, LOGS, PROGRAM, RULES

MAIN_STEPS = (
    ("call_log1", "read_file", {"path": LOGS[0]}, "先看第1份旧日志。"),
    ("call_log2", "read_file", {"path": LOGS[1]}, "再看第2份旧日志。"),
    ("call_log3", "read_file", {"path": LOGS[2]}, "再看第3份旧日志。"),
    ("call_log4", "read_file", {"path": LOGS[3]}, "最后一份旧日志。"),
    ("call_rules", "read_file", {"path": RULES}, "读项目规范。"),
    ("call_child", "child_task", None, "把文件检查交给只读子任务。"),
    ("call_expected", "read_file", {"path": EXPECTED}, "核对要用完整预期，我自己读一遍。"),
    ("call_run", "run_program", {"command": COMMAND}, "按规范运行；宿主会先问用户。"),
)
NEEDS_RULES = {"call_child", "call_run"}
CHILD_STEPS = (
    ("call_c1", "read_file", {"path": PROGRAM}, "读 main.py。"),
    ("call_c2", "read_file", {"path": EXPECTED}, "读 expected.txt。"),
)
SUMMARY = "旧日志1至3已读，属教学旧记录，非本次运行结果。"
AGAIN = "call_rules_for_"


def latest_position(messages: list, steps: tuple) -> int:
    """Index of the step whose result ends the request; -1 before the first tool call."""
    last = messages[-1]["content"]
    ids = [block["tool_use_id"] for block in last if block.get("type") == "tool_result"] \
        if type(last) is list else []
    if not ids:
        return -1
    known = {step[0]: index for index, step in enumerate(steps)}
    latest = ids[-1]
    if latest.startswith(AGAIN) and latest[len(AGAIN):] in known:
        return known[latest[len(AGAIN):]] - 1
    if latest not in known:
        raise ValueError(f"替身不认识最近结果ID {latest!r}；它只会走固定教学脚本。")
    return known[latest]


def reply(text: str, call_id: str | None = None, name: str = "", arguments: dict | None = None) -> dict:
    """A response in the shape checked_blocks accepts: text, then at most one tool call."""
    content = [{"type": "text", "text": text}]
    if call_id is None:
        return {"content": content, "stop_reason": "end_turn"}
    content.append({"type": "tool_use", "id": call_id, "name": name, "input": arguments})
    return {"content": content, "stop_reason": "tool_use"}


def main_standin(request: dict) -> dict:
    """The parent model: next scripted step, re-reading the rules when they left the history."""
    messages = request["messages"]
    following = latest_position(messages, MAIN_STEPS) + 1
    if following == len(MAIN_STEPS):
        return reply("核对：" + verdict(messages)[1])
    call_id, name, arguments, text = MAIN_STEPS[following]
    rules = body_in_history(messages, RULES)
    if call_id in NEEDS_RULES and rules is None:
        return reply("旧规范不能沿用，重新读取。", AGAIN + call_id, "read_file", {"path": RULES})
    if name == "child_task":
        relevant = [line for line in rules.splitlines() if PROGRAM in line or EXPECTED in line]
        arguments = {"task": f"只读检查 {PROGRAM} 与 {EXPECTED}，不要运行程序。规范：{' '.join(relevant)}"}
    return reply(text, call_id, name, arguments)


def child_standin(request: dict) -> dict:
    """The child model: read both files, then report in one fixed form."""
    messages = request["messages"]
    following = latest_position(messages, CHILD_STEPS) + 1
    if following < len(CHILD_STEPS):
        call_id, name, arguments, text = CHILD_STEPS[following]
        return reply(text, call_id, name, arguments)
    program = body_in_history(messages, PROGRAM) or ""
    expected = body_in_history(messages, EXPECTED)
    if expected is None:
        return reply("缺少依据：没有读到完整的 expected.txt。")
    prints = "print(" in program
    return reply(f"{PROGRAM} {'有' if prints else '没有'}打印语句，应以 {COMMAND} 运行；"
                 f"{EXPECTED} 完整预期共{len(expected.splitlines())}行。未运行程序。")


def summary_standin(prefix: list) -> str:
    """The summary model: one fixed text; the host adds the snapshot and permission note."""
    return SUMMARY
