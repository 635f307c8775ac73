"""One practice run: the s01 loop with the s08 prepare hook, wired to the host.

Models are injected (stand-ins or the SDK), everything else is real: files,
JSONL snapshots under <workdir>/.context, and the permission-gated process.
The report keeps counts and every compaction so the CLI and tests can show
what happened without re-deriving it from printed text.
"""
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from s01.core.runtime import run_loop
from s08.core.runtime import archive_writer, history_bytes, prepare_context

from . import plan as plans
from .assembly import CHILD_SYSTEM, CHILD_TOOLS, MAIN_SYSTEM, MAIN_TOOLS, assembler
from .evidence import verdict
from .tools import child_task_tool, read_file_tool, run_program_tool
from .workspace import LOGS, QUESTION, RUN_MARKER

PARENT_MAX_CALLS = 12
CHILD_MAX_CALLS = 4


@dataclass
class Models:
    """main/child take a request dict and return {"content": blocks}; summary takes the old prefix."""
    main: Callable[[dict], dict]
    child: Callable[[dict], dict]
    summary: Callable[[list], str]


@dataclass
class Report:
    """What one run did: loop outcome, request counts, compactions, requests sent, final history."""
    status: str = ""
    text: str = ""
    error: str = ""
    parent_calls: int = 0
    child_calls: int = 0
    summary_calls: int = 0
    permission_asks: int = 0
    verdict: tuple[str, str] = ("not_run", "")
    ran: bool = False
    compactions: list[dict] = field(default_factory=list)
    requests: list[dict] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)


def describe(response: object) -> str:
    """One line per parent request for the console: which tool, or the final answer."""
    blocks = response.get("content") if type(response) is dict else None
    calls = [b for b in blocks or [] if type(b) is dict and b.get("type") == "tool_use"]
    if not calls:
        return "最终答复"
    shown = []
    for block in calls:
        arguments = json.dumps(block.get("input"), ensure_ascii=False).replace("\\n", " ")
        shown.append(f"{block.get('name')} {arguments[:60]}{'…' if len(arguments) > 60 else ''}")
    return "；".join(shown)


def plan_hooks(plan: list[dict], tools: dict) -> dict:
    """Wrap the parent's tools so the host, not the model, advances the plan."""
    def read_file(arguments: dict) -> str:
        plans.advance(plan, 0 if arguments.get("path") in LOGS else 1)
        return tools["read_file"](arguments)

    def child_task(arguments: dict) -> str:
        plans.advance(plan, 1)
        return tools["child_task"](arguments)

    def run_program(arguments: dict) -> str:
        plans.advance(plan, 2)
        output = tools["run_program"](arguments)
        plans.advance(plan, 3)
        return output
    return {"read_file": read_file, "child_task": child_task, "run_program": run_program}


def run_practice(workdir: Path, models: Models, decide: Callable[[str], bool], *, budget: int = 3200,
                 summary_limit: int = 1, log: Callable[[str], None] = print) -> Report:
    """Run the scenario in an already created workspace and return what happened."""
    workdir = Path(workdir)
    report = Report()
    plan = plans.new_plan()
    state = {"archives": [], "summaries": 0, "max_summaries": summary_limit}
    archive = archive_writer(workdir / ".context")
    build_main = assembler(MAIN_SYSTEM, MAIN_TOOLS, plan)
    build_child = assembler(CHILD_SYSTEM, CHILD_TOOLS)

    def ask_main(messages: list) -> dict:
        request = build_main(messages)
        report.requests.append(request)
        report.parent_calls += 1
        response = models.main(request)
        log(f"父请求{report.parent_calls}：{describe(response)}")
        return response

    def ask_child(messages: list) -> dict:
        report.child_calls += 1
        return models.child(build_child(messages))

    def summarize(prefix: list) -> str:
        report.summary_calls += 1
        return models.summary(prefix)

    def ask_user(command: str) -> bool:
        report.permission_asks += 1
        allowed = decide(command)
        log(f"  运行许可：用户{'允许' if allowed else '拒绝'} {command}（本次询问，第{report.permission_asks}次）")
        return allowed

    def prepare(messages: list) -> list:
        number = report.parent_calls + 1
        before, receipts, summaries = history_bytes(messages), len(state["archives"]), state["summaries"]
        event = {"request": number, "before": before}
        report.compactions.append(event)
        try:
            candidate = prepare_context(messages, QUESTION, state, archive, summarize, budget=budget)
        except Exception as error:
            event.update(error=str(error), receipts=state["archives"][receipts:])
            saved = f"；已存快照 {', '.join(event['receipts'])}" if event["receipts"] else ""
            reason = str(error).rstrip("。")
            log(f"[父请求{number}前] {before}字节，预算{budget}，整理失败：{reason}{saved}；"
                "原历史保留，请求未发出")
            raise
        event.update(after=history_bytes(candidate), receipts=state["archives"][receipts:],
                     summarized=state["summaries"] > summaries)
        if event["receipts"]:
            how = "摘要旧前缀" if event["summarized"] else "移出旧正文"
            log(f"[父请求{number}前] 整理：{before} → {event['after']}字节（{how}）；"
                f"快照 {', '.join(event['receipts'])}")
        else:
            report.compactions.pop()
        return candidate

    def run_child(task: str) -> dict:
        result = run_loop([{"role": "user", "content": task}], ask_child,
                          {"read_file": read_file_tool(workdir)}, max_calls=CHILD_MAX_CALLS)
        log(f"  子任务：{result['status']}，{result['calls']}次子请求")
        return result

    tools = plan_hooks(plan, {
        "read_file": read_file_tool(workdir),
        "child_task": child_task_tool(run_child),
        "run_program": run_program_tool(workdir, ask_user),
    })
    messages = [{"role": "user", "content": QUESTION}]
    result = run_loop(messages, ask_main, tools, max_calls=PARENT_MAX_CALLS, prepare=prepare)
    report.status, report.text = result["status"], result["text"]
    report.error = result.get("error", "")
    report.messages = messages
    report.ran = (workdir / RUN_MARKER).exists()
    if result["status"] == "answered":
        report.verdict = verdict(messages)
    return report
