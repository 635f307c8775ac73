"""Lesson s01: the one agent loop every later lesson extends.

The loop alternates model requests with tool calls until the model answers
without asking for a tool. Later lessons hook into it at fixed points instead
of copying it: lesson 5 attaches the current plan to each request copy
(prepare_messages), lesson 8 commits a prepared context before each request
(the `prepare` argument of run_loop). Standard library only, so the same file
runs on CPython 3.11+ and unmodified in Pyodide.
"""
from collections.abc import Callable, Mapping
from copy import deepcopy

Message = dict


def prepare_messages(messages: list[Message], plan: list[dict] | None = None) -> list[Message]:
    """给本次请求的副本附上当前计划；历史里从不保存计划，摘要也改不了它。"""
    request = deepcopy(messages)
    if not plan:
        return request
    lines = ["[当前计划，由宿主提供，不属于历史]"]
    for item in plan:
        mark = {"completed": "x", "in_progress": ">"}.get(item["status"], " ")
        lines.append(f"[{mark}] {item['step']}")
    note = {"type": "text", "text": "\n".join(lines)}
    last = request[-1]
    if last.get("role") != "user":
        raise ValueError("请求必须以用户消息结尾，计划才有位置附上。")
    if type(last["content"]) is str:
        last["content"] = [{"type": "text", "text": last["content"]}]
    last["content"].append(note)
    return request


def checked_blocks(response: object) -> list[dict]:
    """模型回复先验形状：只接受文本与带唯一ID的工具请求，坏回复不进历史。"""
    blocks = response.get("content") if type(response) is dict else None
    if type(blocks) is not list or not blocks:
        raise ValueError("模型回复必须带非空content列表。")
    ids = []
    for block in blocks:
        kind = block.get("type") if type(block) is dict else None
        if kind == "text" and type(block.get("text")) is str:
            continue
        if (kind != "tool_use" or type(block.get("id")) is not str or not block["id"]
                or type(block.get("name")) is not str or type(block.get("input")) is not dict):
            raise ValueError("回复块只能是文本，或带id、name、input的工具请求。")
        ids.append(block["id"])
    if len(set(ids)) != len(ids):
        raise ValueError("同一回复里的工具请求ID重复。")
    return deepcopy(blocks)


def run_tool(tools: Mapping[str, Callable[[dict], object]], block: dict) -> dict:
    """执行一个工具请求；失败也变成同ID的错误结果，交接组永远完整。"""
    tool = tools.get(block["name"])
    try:
        if tool is None:
            raise LookupError(f"没有名为 {block['name']} 的工具。")
        content, is_error = str(tool(block["input"])), False
    except Exception as error:
        content, is_error = f"工具失败：{error}", True
    return {"type": "tool_result", "tool_use_id": block["id"], "content": content, "is_error": is_error}


def run_loop(
    messages: list[Message],
    ask: Callable[[list[Message]], dict],
    tools: Mapping[str, Callable[[dict], object]],
    *,
    max_calls: int = 12,
    prepare: Callable[[list[Message]], list[Message]] | None = None,
) -> dict:
    """请求模型、执行工具、回送结果，直到模型不再请求工具。

    messages 是活跃历史，循环原地追加；ask(messages) 发出一次模型请求，
    tools 把工具名映射到宿主函数。prepare=None 时行为与原循环相同。
    提供 prepare 时，它只在一组工具结果收齐之后、下一次请求之前运行，
    而且只拿到深副本：返回候选列表才整体替换活跃历史（提交点），
    返回别的东西或抛出异常，都在发请求之前停为 context_error，原历史保留。
    calls 只数已经发出的父请求；子任务和摘要请求各有自己的预算。
    """
    def finish(status, text, calls, error=None):
        result = {"status": status, "text": text, "calls": calls}
        if error is not None:
            result["error"] = str(error) or type(error).__name__
        return result

    if type(max_calls) is not int or max_calls < 1:
        raise ValueError("max_calls必须是正整数：它是父请求的预算。")
    for number in range(1, max_calls + 1):
        if prepare is not None:
            try:
                candidate = prepare(deepcopy(messages))
                if type(candidate) is not list:
                    raise ValueError("prepare必须返回候选消息列表")
            except Exception as error:
                return finish("context_error", "上下文准备失败；原历史保留。", number - 1, error)
            messages[:] = candidate

        try:
            response = ask(messages)
            blocks = checked_blocks(response)
        except Exception as error:
            return finish("model_error", "模型请求失败；历史停在上一组完整结果。", number, error)
        messages.append({"role": "assistant", "content": blocks})
        requests = [block for block in blocks if block["type"] == "tool_use"]
        if not requests:
            text = "\n".join(block["text"] for block in blocks)
            return finish("answered", text, number)
        messages.append({"role": "user", "content": [run_tool(tools, block) for block in requests]})
    return finish("max_calls", f"用完{max_calls}次请求预算，任务未完成。", max_calls)
