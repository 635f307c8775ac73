"""--live: the official anthropic SDK behind the same three model interfaces.

Imported only for --live, and anthropic itself is imported only when no client
is passed in, so the offline path and Pyodide never need the SDK. Tests pass a
client built on a mock HTTP transport.
"""
import os

from .assembly import SUMMARY_SYSTEM, render_prefix
from .session import Models

DEFAULT_MODEL = "claude-sonnet-5-5"
MAIN_MAX_TOKENS = 1024
SUMMARY_MAX_TOKENS = 300


class LiveSetupError(RuntimeError):
    """--live cannot start: no key or no SDK. Nothing has been sent."""


def make_client() -> object:
    key = os.environ.get("ANTHROPIC_API_KEY", "").strip()
    if not key:
        raise LiveSetupError("--live 需要环境变量 ANTHROPIC_API_KEY；未设置时请去掉 --live 使用固定替身。")
    try:
        import anthropic
    except ImportError as error:
        raise LiveSetupError("--live 需要 anthropic SDK：pip install 'stepwise[live]'。") from error
    return anthropic.Anthropic(api_key=key)


def plain_blocks(message: object) -> list[dict]:
    """SDK content blocks -> the plain dicts the loop stores; unknown kinds are refused."""
    blocks = []
    for block in message.content:
        if block.type == "text":
            if block.text:
                blocks.append({"type": "text", "text": block.text})
        elif block.type == "tool_use":
            blocks.append({"type": "tool_use", "id": block.id, "name": block.name, "input": dict(block.input)})
        else:
            raise ValueError(f"本例不处理 {block.type} 块；只接受 text 与 tool_use。")
    return blocks


def live_models(model: str | None = None, client: object | None = None) -> Models:
    """Main, child and summary models on one SDK client."""
    client = client if client is not None else make_client()
    model = model or DEFAULT_MODEL

    def complete(request: dict) -> dict:
        message = client.messages.create(model=model, max_tokens=MAIN_MAX_TOKENS, system=request["system"],
                                         tools=request["tools"], messages=request["messages"])
        return {"content": plain_blocks(message), "stop_reason": message.stop_reason}

    def summarize(prefix: list) -> str:
        message = client.messages.create(model=model, max_tokens=SUMMARY_MAX_TOKENS, system=SUMMARY_SYSTEM,
                                         messages=[{"role": "user", "content": render_prefix(prefix)}])
        if message.stop_reason != "end_turn":
            raise ValueError(f"摘要的 stop_reason 是 {message.stop_reason}，不是 end_turn；"
                             "截断的摘要不完整，已拒收。")
        return "".join(block["text"] for block in plain_blocks(message) if block["type"] == "text")

    return Models(main=complete, child=complete, summary=summarize)
