"""The current plan (lesson 5): host state, attached to each request copy.

The plan lives here, outside the message history, so compaction can neither
trim it nor let a summary claim a step is done. Only host tools advance it.
"""

STEPS = (
    "查看四份旧日志",
    "按规范检查 main.py 与 expected.txt",
    "运行前征得用户本次许可",
    "获准后核对实际输出与完整预期",
)


def new_plan() -> list[dict]:
    """A fresh plan: the first step is in progress, the rest pending."""
    plan = [{"step": step, "status": "pending"} for step in STEPS]
    advance(plan, 0)
    return plan


def advance(plan: list[dict], index: int) -> None:
    """Mark every step before index completed and index in progress; never go back."""
    current = next((i for i, item in enumerate(plan) if item["status"] != "completed"), len(plan))
    if index < current:
        return
    for position, item in enumerate(plan):
        if position < index:
            item["status"] = "completed"
        elif position == index:
            item["status"] = "in_progress"

