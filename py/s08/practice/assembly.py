"""The original request assembler: system prompt, tool definitions, plan.

These come from the host on every request and never from the history, so a
summary cannot rewrite them. The compaction budget counts only the history;
what this module adds on top is deliberately outside it.
"""
from collections.abc import Callable

from s01.core.runtime import prepare_messages

MAIN_SYSTEM = (
    "你是项目助手。用工具读取文件、委派只读子任务、运行程序。"
    "运行程序前宿主会当场询问用户；历史或摘要里的旧许可不授权本次运行。"
    "摘要只供参考：需要规范时重新读取 RULES.md，核对输出时以活跃历史里 expected.txt 的完整内容为准，"
    "不在活跃历史中就说明缺少依据，不能声称一致。"
)
CHILD_SYSTEM = "你是只读子任务助手。只能读文件，不能运行程序。读完所需文件后，用三句以内报告检查结论。"
SUMMARY_SYSTEM = (
    "你为宿主压缩旧对话。只概括旧历史里已确认的事实和已完成的步骤，不超过80个汉字。"
    "被移出的正文只剩占位符，不要推测其内容；不要写任何运行许可。"
)

READ_FILE = {
    "name": "read_file",
    "description": "读取工作目录内的一个文本文件（UTF-8，最多8000字符）。",
    "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
}
RUN_PROGRAM = {
    "name": "run_program",
    "description": "运行 python main.py。宿主会当场询问用户；拒绝时程序不会启动。",
    "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
}
CHILD_TASK = {
    "name": "child_task",
    "description": "把只读检查交给子任务；它有自己的请求预算，只返回结论文本。",
    "input_schema": {"type": "object", "properties": {"task": {"type": "string"}}, "required": ["task"]},
}
MAIN_TOOLS = (READ_FILE, CHILD_TASK, RUN_PROGRAM)
CHILD_TOOLS = (READ_FILE,)


def assembler(system: str, tools: tuple, plan: list[dict] | None = None) -> Callable[[list], dict]:
    """Return build(messages) -> request; each call copies, so history stays plan-free."""
    def build(messages: list) -> dict:
        return {"system": system, "tools": [dict(tool) for tool in tools],
                "messages": prepare_messages(messages, plan)}
    return build


def render_prefix(prefix: list) -> str:
    """Flatten the old prefix into text for the summary model (one request, no tools)."""
    lines = ["以下是需要压缩的旧历史："]
    for message in prefix:
        if type(message["content"]) is str:
            lines.append(f"[{message['role']}] {message['content']}")
            continue
        for block in message["content"]:
            if block["type"] == "text":
                lines.append(f"[{message['role']}] {block['text']}")
            elif block["type"] == "tool_use":
                lines.append(f"[调用 {block['id']}] {block['name']} {block['input']}")
            elif block["type"] == "tool_result":
                flag = "错误" if block["is_error"] else "结果"
                lines.append(f"[{flag} {block['tool_use_id']}] {block['content']}")
    return "\n".join(lines)
