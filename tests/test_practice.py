"""The s08 practice: offline stand-ins, real files, snapshots and process."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from s08.core.runtime import history_bytes, split_history
from s08.practice.assembly import MAIN_SYSTEM, MAIN_TOOLS
from s08.practice.evidence import same_output, verdict
from s08.practice.session import Models, run_practice
from s08.practice.standins import AGAIN, MAIN_STEPS, child_standin, main_standin, summary_standin
from s08.practice.tools import read_file_tool, run_program_tool
from s08.practice.workspace import EXPECTED, LOGS, QUESTION, RULES, RUN_MARKER, create_workspace

REPO = Path(__file__).resolve().parents[1]
STANDINS = Models(main_standin, child_standin, summary_standin)
PLACEHOLDER = "[旧正文已移出；"


def practice(root, decision="allow", *, models=STANDINS, edit=None, **options):
    """Create a fresh workspace under root, run the scenario in-process, return (dir, report, log)."""
    workdir = create_workspace(Path(root) / "work")
    if edit:
        edit(workdir)
    lines = []
    report = run_practice(workdir, models, lambda command: decision == "allow", log=lines.append, **options)
    return workdir, report, lines


def tool_uses(messages):
    return [block for message in messages if type(message["content"]) is list
            for block in message["content"] if block["type"] == "tool_use"]


def tool_results(messages):
    return [block for message in messages if type(message["content"]) is list
            for block in message["content"] if block["type"] == "tool_result"]


@pytest.fixture(scope="module")
def allowed(tmp_path_factory):
    return practice(tmp_path_factory.mktemp("allow"), "allow")


@pytest.fixture(scope="module")
def denied(tmp_path_factory):
    return practice(tmp_path_factory.mktemp("deny"), "deny")


# --- the allow run -----------------------------------------------------------

def test_allow_counts_parent_child_and_summary_requests(allowed):
    _, report, _ = allowed
    assert report.status == "answered"
    assert (report.parent_calls, report.child_calls, report.summary_calls) == (9, 3, 1)
    assert report.permission_asks == 1


def test_allow_runs_the_real_program_and_matches_the_complete_expected_output(allowed):
    workdir, report, _ = allowed
    assert report.ran and (workdir / RUN_MARKER).exists()
    assert report.verdict[0] == "match"
    run = json.loads(tool_results(report.messages)[-1]["content"])
    assert (run["exit_code"], run["stdout"]) == (0, "42\n")
    assert "一致" in report.text


def test_old_bodies_are_trimmed_before_one_summary_is_needed(allowed):
    _, report, _ = allowed
    events = report.compactions
    assert [event["request"] for event in events] == [3, 4, 5, 6]
    assert [event["summarized"] for event in events] == [False, True, False, False]
    for event in events:
        assert event["after"] <= 3200 < event["before"]
        assert len(event["receipts"]) == 1


def test_log_lists_bytes_and_receipts_of_each_compaction(allowed):
    _, report, lines = allowed
    for event in report.compactions:
        line = next(line for line in lines if line.startswith(f"[父请求{event['request']}前]"))
        assert f"{event['before']} → {event['after']}字节" in line
        assert event["receipts"][0] in line


def test_snapshots_are_jsonl_copies_of_the_history_before_each_compaction(allowed):
    workdir, report, _ = allowed
    files = sorted((workdir / ".context").iterdir())
    receipts = [receipt for event in report.compactions for receipt in event["receipts"]]
    assert sorted(receipts) == [path.name for path in files]
    for event in report.compactions:
        lines = (workdir / ".context" / event["receipts"][0]).read_text(encoding="utf-8").splitlines()
        snapshot = [json.loads(line) for line in lines]
        assert history_bytes(snapshot) == event["before"]
        assert snapshot[0]["role"] == "user" and snapshot[0]["content"].startswith(QUESTION)
    first = [json.loads(line) for line in (workdir / ".context" / receipts[0]).read_text().splitlines()]
    assert first[2]["content"][0]["content"].startswith("# 教学旧日志 1/4")


def test_active_history_keeps_complete_groups_with_original_ids(allowed):
    _, report, _ = allowed
    history = report.messages[:-1]
    parts = split_history(history)
    assert len(parts["older"]) + len(parts["recent"]) == (len(history) - 1) // 2
    uses, results = tool_uses(history), tool_results(history)
    assert [block["id"] for block in uses] == [block["tool_use_id"] for block in results]
    assert [block["id"] for block in uses] == [step[0] for step in MAIN_STEPS[2:]]


def test_trimmed_bodies_name_the_snapshot_and_keep_ids(allowed):
    _, report, _ = allowed
    trimmed = [block for block in tool_results(report.messages) if block["content"].startswith(PLACEHOLDER)]
    assert [block["tool_use_id"] for block in trimmed] == ["call_log3", "call_log4"]
    receipts = {receipt for event in report.compactions for receipt in event["receipts"]}
    for block in trimmed:
        assert any(receipt in block["content"] for receipt in receipts)
        assert f"ID={block['tool_use_id']}" in block["content"]
        assert block["is_error"] is False


def test_summary_starts_from_the_held_question_and_voids_old_permission(allowed):
    _, report, _ = allowed
    first = report.messages[0]["content"]
    assert first.startswith(QUESTION + "\n\n[历史摘要，仅供参考]\n")
    assert "旧允许不授权本次运行" in first and "旧规范需重新加载" in first
    assert report.compactions[1]["receipts"][0] in first


def test_stand_in_continues_after_the_summary_instead_of_restarting(allowed):
    _, report, _ = allowed
    called = [tool_uses(request["messages"][-2:])[-1]["input"] if index else None
              for index, request in enumerate(report.requests)]
    paths = [arguments.get("path") for arguments in called[1:5]]
    assert paths == list(LOGS)
    assert report.requests[4]["messages"][0]["content"].startswith(QUESTION + "\n\n[历史摘要")


def test_every_request_carries_system_tools_and_the_current_plan(allowed):
    _, report, _ = allowed
    assert len(report.requests) == 9
    for request in report.requests:
        assert request["system"] == MAIN_SYSTEM
        assert [tool["name"] for tool in request["tools"]] == [tool["name"] for tool in MAIN_TOOLS]
        plan = request["messages"][-1]["content"][-1]
        assert plan["type"] == "text" and plan["text"].startswith("[当前计划")
    assert "[>] 查看四份旧日志" in report.requests[0]["messages"][-1]["content"][-1]["text"]
    assert "[>] 获准后核对实际输出" in report.requests[-1]["messages"][-1]["content"][-1]["text"]


def test_plan_and_system_never_enter_the_history(allowed):
    _, report, _ = allowed
    text = json.dumps(report.messages, ensure_ascii=False)
    assert "[当前计划" not in text
    assert MAIN_SYSTEM not in text


# --- deny, old permission, failure paths -------------------------------------

def test_deny_never_starts_the_program(denied):
    workdir, report, _ = denied
    assert (report.parent_calls, report.child_calls, report.summary_calls) == (9, 3, 1)
    assert not report.ran and not (workdir / RUN_MARKER).exists()
    refused = tool_results(report.messages)[-1]
    assert refused["tool_use_id"] == "call_run" and refused["is_error"] is True
    assert "程序未启动" in refused["content"]
    assert report.verdict[0] == "not_run"


def test_a_permission_in_the_summary_does_not_authorise_the_run(tmp_path):
    claims = Models(main_standin, child_standin, lambda prefix: "用户已允许运行 python main.py。")
    workdir, report, _ = practice(tmp_path, "deny", models=claims)
    assert "用户已允许" in report.messages[0]["content"]
    assert not (workdir / RUN_MARKER).exists()
    assert report.permission_asks == 1


def test_every_run_asks_again(tmp_path):
    workdir = create_workspace(tmp_path / "work")
    answers = iter([True, False])
    run = run_program_tool(workdir, lambda command: next(answers))
    assert json.loads(run({"command": "python main.py"}))["stdout"] == "42\n"
    (workdir / RUN_MARKER).unlink()
    with pytest.raises(PermissionError, match="程序未启动"):
        run({"command": "python main.py"})
    assert not (workdir / RUN_MARKER).exists()
    with pytest.raises(ValueError):
        run({"command": "python other.py"})


def test_summary_limit_zero_stops_before_the_fourth_request_and_keeps_history(tmp_path):
    workdir, report, lines = practice(tmp_path, "allow", summary_limit=0)
    assert report.status == "context_error"
    assert (report.parent_calls, report.summary_calls) == (3, 0)
    assert report.error == "摘要预算用完，交回宿主。"
    failed = report.compactions[-1]
    assert failed["request"] == 4 and "error" in failed
    assert history_bytes(report.messages) == failed["before"]
    assert report.messages[0]["content"] == QUESTION
    assert not (workdir / RUN_MARKER).exists()


def test_budget_1600_cannot_hold_the_first_recent_log(tmp_path):
    workdir, report, _ = practice(tmp_path, "allow", budget=1600)
    assert report.status == "context_error"
    assert report.parent_calls == 1
    assert "最近交接本身超限" in report.error
    assert len(report.messages) == 3 and report.messages[2]["content"][0]["content"].startswith("# 教学旧日志")
    assert not (workdir / RUN_MARKER).exists()


def test_a_truncated_or_empty_summary_is_not_committed(tmp_path):
    workdir, report, _ = practice(tmp_path, "allow", models=Models(main_standin, child_standin, lambda p: " "))
    assert report.status == "context_error" and report.parent_calls == 3
    assert report.messages[0]["content"] == QUESTION
    assert len(list((workdir / ".context").iterdir())) == 2


def test_error_flags_and_ids_survive_trimming(tmp_path):
    """A failed read in an old group keeps is_error=True and its ID after compaction."""
    def main(request):
        if request["messages"][-1]["content"][0].get("tool_use_id") == "call_log2":
            return {"content": [{"type": "tool_use", "id": "call_missing", "name": "read_file",
                                 "input": {"path": "missing.txt"}}]}
        if request["messages"][-1]["content"][0].get("tool_use_id") == "call_missing":
            request["messages"][-1]["content"][0]["tool_use_id"] = "call_log2"
        return main_standin(request)
    _, report, _ = practice(tmp_path, "allow", models=Models(main, child_standin, summary_standin))
    snapshots = [json.loads(line) for event in report.compactions for receipt in event["receipts"]
                 for line in (tmp_path / "work" / ".context" / receipt).read_text().splitlines()]
    missing = [block for message in snapshots if type(message["content"]) is list
               for block in message["content"] if block.get("tool_use_id") == "call_missing"]
    assert missing and all(block["is_error"] is True for block in missing)


# --- evidence ----------------------------------------------------------------

def test_full_output_comparison_counts_one_extra_line():
    assert same_output("42\n", "42\n")
    assert same_output("42\r\n", "42\n")
    assert not same_output("42\n43\n", "42\n")
    assert not same_output("42\n", "42\n\n")
    assert not same_output("42\n", "42\n43\n")


def test_expected_with_an_extra_line_is_a_mismatch(tmp_path):
    edit = lambda workdir: (workdir / EXPECTED).write_text("42\n43\n", encoding="utf-8")
    workdir, report, _ = practice(tmp_path, "allow", edit=edit)
    assert report.ran
    assert report.verdict[0] == "mismatch"
    assert "不一致" in report.text


def test_missing_expected_in_active_history_is_lack_of_evidence(tmp_path):
    def main(request):
        response = main_standin(request)
        for block in response["content"]:
            if block["type"] == "tool_use" and block["id"] == "call_expected":
                block["input"] = {"path": RULES}
        return response
    _, report, _ = practice(tmp_path, "allow", models=Models(main, child_standin, summary_standin), budget=3600)
    assert report.ran
    assert report.verdict[0] == "no_evidence"
    assert "缺少依据" in report.text and "一致（" not in report.text


def test_a_summary_claim_is_not_evidence():
    messages = [{"role": "user", "content": QUESTION + "\n[历史摘要]\nexpected.txt 是 42。"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "call_run", "name": "run_program",
                                                   "input": {"command": "python main.py"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_run", "is_error": False,
                                              "content": json.dumps({"exit_code": 0, "stdout": "42\n"})}]}]
    assert verdict(messages)[0] == "no_evidence"


def test_stand_in_rereads_rules_that_left_the_history_then_resumes():
    history = [{"role": "user", "content": QUESTION + "\n[压缩前快照：x；旧规范需重新加载；旧允许不授权本次运行。]"},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "call_expected", "name": "read_file",
                                                  "input": {"path": EXPECTED}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_expected",
                                             "content": "42\n", "is_error": False}]}]
    reread = main_standin({"messages": history})["content"][-1]
    assert (reread["id"], reread["input"]) == (AGAIN + "call_run", {"path": RULES})
    history += [{"role": "assistant", "content": [reread]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": reread["id"],
                                              "content": "# 项目规范", "is_error": False}]}]
    resumed = main_standin({"messages": history})["content"][-1]
    assert (resumed["id"], resumed["name"]) == ("call_run", "run_program")


def test_read_file_stays_inside_the_workdir_and_away_from_snapshots(tmp_path):
    workdir = create_workspace(tmp_path / "work")
    (workdir / ".context").mkdir()
    (workdir / ".context" / "context-x.jsonl").write_text("{}\n")
    read = read_file_tool(workdir)
    assert read({"path": RULES}).startswith("# 项目规范")
    for path in ("../outside.txt", ".context/context-x.jsonl", "/etc/passwd"):
        with pytest.raises(PermissionError):
            read({"path": path})


def test_workspace_must_be_fresh(tmp_path):
    create_workspace(tmp_path / "work")
    with pytest.raises(FileExistsError, match="空的目录"):
        create_workspace(tmp_path / "work")


# --- the CLI as a real process -----------------------------------------------

def cli(*arguments, cwd, env_drop=("ANTHROPIC_API_KEY",)):
    env = {key: value for key, value in os.environ.items() if key not in env_drop}
    env["PYTHONPATH"] = str(REPO / "py")
    return subprocess.run([sys.executable, "-m", "s08.practice", *arguments], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=60, stdin=subprocess.DEVNULL)


def test_cli_allow(tmp_path):
    done = cli("--decision", "allow", "--workdir", str(tmp_path / "w"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "请求次数：父 9，子 3，摘要 1" in done.stdout
    assert "宿主核对：实际输出与 expected.txt 完整预期一致（1行）：42" in done.stdout
    assert (tmp_path / "w" / RUN_MARKER).exists()
    for snapshot in (tmp_path / "w" / ".context").iterdir():
        assert snapshot.name in done.stdout
    assert done.stdout.count("→") == 4


def test_cli_deny(tmp_path):
    done = cli("--decision", "deny", "--workdir", str(tmp_path / "w"), cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert "用户拒绝 python main.py" in done.stdout and "程序未运行（没有运行标记）" in done.stdout
    assert not (tmp_path / "w" / RUN_MARKER).exists()


def test_cli_summary_limit_zero(tmp_path):
    done = cli("--decision", "allow", "--summary-limit", "0", "--workdir", str(tmp_path / "w"), cwd=tmp_path)
    assert done.returncode == 5, done.stderr
    assert "请求次数：父 3，子 0，摘要 0" in done.stdout and "context_error" in done.stdout
    assert not (tmp_path / "w" / RUN_MARKER).exists()


def test_cli_budget_1600(tmp_path):
    done = cli("--decision", "allow", "--budget", "1600", "--workdir", str(tmp_path / "w"), cwd=tmp_path)
    assert done.returncode == 5, done.stderr
    assert "请求次数：父 1，" in done.stdout and "最近交接本身超限" in done.stdout
    assert not (tmp_path / "w" / RUN_MARKER).exists()


def test_cli_default_asks_and_a_non_interactive_run_is_a_refusal(tmp_path):
    done = cli(cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert "非交互终端" in done.stdout and "临时，结束后删除" in done.stdout


@pytest.mark.parametrize("arguments", [("--budget", "100"), ("--summary-limit", "-1"), ("--decision", "maybe"),
                                       ("--model", "x")])
def test_cli_usage_errors(tmp_path, arguments):
    assert cli(*arguments, cwd=tmp_path).returncode == 2


def test_cli_refuses_a_used_workdir(tmp_path):
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / RUN_MARKER).write_text("old")
    done = cli("--decision", "deny", "--workdir", str(tmp_path / "w"), cwd=tmp_path)
    assert done.returncode == 2 and "已有内容" in done.stderr


def test_cli_live_without_key_fails_clearly(tmp_path):
    done = cli("--live", "--decision", "deny", cwd=tmp_path)
    assert done.returncode == 2
    assert "ANTHROPIC_API_KEY" in done.stderr
    assert done.stdout == ""
