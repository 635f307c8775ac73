"""Command line: python -m s08.practice [--decision ask|allow|deny] [--budget N] ...

Exit codes say what happened, so scripts need not parse the Chinese output:
0 verified match, 1 output mismatch, 2 usage or setup error, 3 program not
run (denied), 4 lack of evidence, 5 context_error, 6 model_error, 7 request
budget used up.
"""
import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from .session import Models, Report, run_practice
from .standins import child_standin, main_standin, summary_standin
from .workspace import create_workspace

EXIT = {"match": 0, "mismatch": 1, "not_run": 3, "no_evidence": 4,
        "context_error": 5, "model_error": 6, "max_calls": 7}
USAGE_ERROR = 2


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m s08.practice",
        description="第八课练习：带提交点的循环在预算压力下整理上下文，获准后运行 main.py 并核对输出。",
        epilog="退出码：0 核对一致；1 输出不一致；2 用法或准备错误；3 程序未运行（拒绝）；"
               "4 缺少依据；5 context_error；6 model_error；7 请求预算用完。")
    parser.add_argument("--decision", choices=("ask", "allow", "deny"), default="ask",
                        help="运行 python main.py 前的用户答复；ask 在终端当场询问，非交互时视为拒绝")
    parser.add_argument("--budget", type=int, default=3200, help="活跃历史的字节预算（至少400，默认3200）")
    parser.add_argument("--summary-limit", type=int, default=1, help="本次最多摘要几次（默认1）")
    parser.add_argument("--workdir", type=Path,
                        help="不存在或空的工作目录，运行后保留；默认用临时目录并在结束时删除")
    parser.add_argument("--live", action="store_true", help="用 anthropic SDK 调真实模型（需 ANTHROPIC_API_KEY）")
    parser.add_argument("--model", default=None, help="--live 时使用的模型名")
    args = parser.parse_args(argv)
    if args.budget < 400:
        parser.error("--budget 至少400字节：prepare_context 拒绝更小的预算。")
    if args.summary_limit < 0:
        parser.error("--summary-limit 不能为负数。")
    if args.model and not args.live:
        parser.error("--model 只在 --live 时有意义。")
    return args


def decider(decision: str) -> Callable[[str], bool]:
    """The user's answer, asked at the moment of each run and never remembered."""
    if decision != "ask":
        return lambda command: decision == "allow"

    def ask(command: str) -> bool:
        if not sys.stdin.isatty():
            print(f"  非交互终端，无法询问；按拒绝处理 {command}。")
            return False
        try:
            answer = input(f"  允许运行 {command} 吗？[y/N] ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes", "是")
    return ask


def print_report(report: Report) -> int:
    """Print the outcome and the request counts; return the exit code."""
    print(f"请求次数：父 {report.parent_calls}，子 {report.child_calls}，摘要 {report.summary_calls}")
    failed = sum(1 for event in report.compactions if "error" in event)
    print(f"快照：{sum(len(event['receipts']) for event in report.compactions)} 份；"
          f"整理 {len(report.compactions) - failed} 次，失败 {failed} 次")
    print(f"程序{'已运行（有运行标记）' if report.ran else '未运行（没有运行标记）'}")
    if report.status != "answered":
        print(f"结果：{report.status}：{report.text}")
        if report.error:
            print(f"原因：{report.error}")
        return EXIT[report.status]
    print(f"模型答复：{report.text}")
    kind, message = report.verdict
    print(f"宿主核对：{message}")
    return EXIT[kind]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.live:
        from .live import LiveSetupError, live_models
        try:
            models = live_models(args.model)
        except LiveSetupError as error:
            print(f"错误：{error}", file=sys.stderr)
            return USAGE_ERROR
    else:
        models = Models(main_standin, child_standin, summary_standin)
    with tempfile.TemporaryDirectory(prefix="s08-practice-") as temporary:
        workdir = args.workdir or Path(temporary)
        try:
            create_workspace(workdir)
        except (FileExistsError, OSError) as error:
            print(f"错误：{error}", file=sys.stderr)
            return USAGE_ERROR
        kept = "保留" if args.workdir else "临时，结束后删除；用 --workdir 保留"
        print(f"工作目录：{workdir}（{kept}）")
        print(f"模型：{'真实（--live）' if args.live else '固定替身'}；预算 {args.budget}字节；"
              f"摘要额度 {args.summary_limit}；许可 {args.decision}")
        report = run_practice(workdir, models, decider(args.decision), budget=args.budget,
                              summary_limit=args.summary_limit)
        return print_report(report)
