"""Host tools: real file reads, a permission-gated real process, a child task.

A tool raises to report failure; the loop turns that into an is_error result
with the same ID, so a refusal stays visible in the history.
"""
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .workspace import PROGRAM

MAX_READ_CHARS = 8000
RUN_TIMEOUT = 10
COMMAND = "python main.py"


def read_file_tool(root: Path) -> Callable[[dict], str]:
    """read_file confined to root; the .context snapshots are the host's, not the model's."""
    root = Path(root).resolve()

    def read_file(arguments: dict) -> str:
        name = arguments.get("path")
        if type(name) is not str or not name:
            raise ValueError("read_file 需要字符串参数 path。")
        target = (root / name).resolve()
        if not target.is_relative_to(root) or target == root:
            raise PermissionError(f"{name} 不在工作目录内。")
        if target.relative_to(root).parts[0] == ".context":
            raise PermissionError("快照归宿主所有，本例没有给模型检索归档的工具。")
        text = target.read_text(encoding="utf-8")
        if len(text) > MAX_READ_CHARS:
            raise ValueError(f"{name} 超过{MAX_READ_CHARS}字符；请读更小的文件。")
        return text
    return read_file


def run_program_tool(root: Path, decide: Callable[[str], bool]) -> Callable[[dict], str]:
    """run_program: ask the user now, every time; only then start the real process.

    No grant is stored anywhere, so a permission seen earlier in the history or
    in a summary can never authorise this run.
    """
    root = Path(root)

    def run_program(arguments: dict) -> str:
        if arguments.get("command") != COMMAND:
            raise ValueError(f"本例只运行 {COMMAND!r}。")
        if not decide(COMMAND):
            raise PermissionError(f"用户拒绝运行 {COMMAND}；程序未启动。")
        try:
            done = subprocess.run([sys.executable, PROGRAM], cwd=root, capture_output=True,
                                  encoding="utf-8", errors="replace", timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired as error:
            raise TimeoutError(f"{COMMAND} 超过{RUN_TIMEOUT}秒，已停止。") from error
        return json.dumps({"command": COMMAND, "exit_code": done.returncode,
                           "stdout": done.stdout, "stderr": done.stderr}, ensure_ascii=False)
    return run_program


def child_task_tool(run_child: Callable[[str], dict]) -> Callable[[dict], str]:
    """child_task: a sub-loop with its own budget; only its answer returns to the parent."""
    def child_task(arguments: dict) -> str:
        task = arguments.get("task")
        if type(task) is not str or not task.strip():
            raise ValueError("child_task 需要非空字符串参数 task。")
        result = run_child(task)
        if result["status"] != "answered":
            raise RuntimeError(f"子任务停在 {result['status']}：{result.get('error', result['text'])}")
        return result["text"]
    return child_task
