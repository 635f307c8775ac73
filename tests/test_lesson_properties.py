"""Properties of the s08 lesson functions over generated tool-exchange histories."""
import json
from copy import deepcopy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from s08.core.runtime import archive_writer, history_bytes, prepare_context, split_history, trim_results

TEXT = st.text(alphabet=st.sampled_from("ab旧近期证据 \n\"<>"), max_size=1400)


@st.composite
def histories(draw, min_groups=1, max_groups=6):
    """question + complete groups of tool_use/tool_result with unique IDs."""
    question = draw(st.text(min_size=1, max_size=40))
    messages = [{"role": "user", "content": question}]
    serial = 0
    for _ in range(draw(st.integers(min_groups, max_groups))):
        calls = []
        for _ in range(draw(st.integers(1, 3))):
            serial += 1
            calls.append(f"call_{serial}")
        request = [{"type": "tool_use", "id": i, "name": "read_file", "input": {"path": "x"}} for i in calls]
        if draw(st.booleans()):
            request.insert(0, {"type": "text", "text": draw(st.text(max_size=30))})
        results = [{"type": "tool_result", "tool_use_id": i, "content": draw(TEXT), "is_error": draw(st.booleans())}
                   for i in draw(st.permutations(calls))]
        messages += [{"role": "assistant", "content": request}, {"role": "user", "content": results}]
    return messages


def identities(messages):
    """Roles, IDs and error flags: what compaction must never change."""
    return [(m["role"], [(b.get("id"), b.get("tool_use_id"), b.get("is_error")) for b in m["content"]])
            for m in messages[1:]]


class Recorder:
    """archive_writer into a real temp dir, keeping what each call was given."""

    def __init__(self, directory):
        self.save, self.directory, self.given = archive_writer(directory), directory, []

    def __call__(self, messages):
        self.given.append(deepcopy(messages))
        return self.save(messages)


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(histories(), st.integers(1, 4))
def test_split_partitions_complete_groups(messages, keep):
    before = deepcopy(messages)
    parts = split_history(messages, keep)
    assert messages == before
    groups = parts["older"] + parts["recent"]
    assert [m for g in groups for m in g] == messages[1:] and parts["question"] == messages[0]
    assert len(parts["recent"]) == min(keep, len(groups))


@SETTINGS
@given(histories(), st.integers(1, 4), st.integers(1, 900))
def test_trim_changes_only_old_large_bodies(messages, keep, max_chars):
    before = deepcopy(messages)
    candidate = trim_results(messages, "context-000000000000.jsonl", keep, max_chars)
    assert messages == before
    assert identities(candidate) == identities(messages)
    recent = 2 * min(keep, (len(messages) - 1) // 2)
    assert candidate[len(candidate) - recent:] == messages[len(messages) - recent:]
    for new, old in zip(candidate[1:], messages[1:], strict=True):
        for a, b in zip(new["content"], old["content"], strict=True):
            if a != b:
                assert len(b["content"]) > max_chars and "此标记不是执行结果" in a["content"]


@SETTINGS
@given(histories(), st.integers(400, 6000), st.integers(1, 4), st.integers(0, 2), st.booleans())
def test_prepare_success_fits_and_shrinks(tmp_path_factory, messages, budget, keep, max_summaries, empty):
    archive = Recorder(tmp_path_factory.mktemp("archive"))
    before = deepcopy(messages)
    state = {"archives": [], "summaries": 0, "max_summaries": max_summaries}
    summarize = lambda prefix: "" if empty else "旧前缀摘要。"
    try:
        candidate = prepare_context(messages, "原问题", state, archive, summarize, budget=budget, keep_recent=keep)
    except ValueError:
        candidate = None
    assert messages == before, "input must never change, success or failure"
    assert state["summaries"] <= max_summaries
    for receipt, given_messages in zip(state["archives"], archive.given, strict=True):
        lines = (archive.directory / receipt).read_text(encoding="utf-8").split("\n")[:-1]  # JSONL: split on "\n" only
        assert [json.loads(line) for line in lines] == given_messages == before
    if candidate is None:
        return
    assert history_bytes(candidate) <= budget
    if not state["archives"]:
        assert candidate == messages and candidate is not messages
        return
    assert history_bytes(candidate) < history_bytes(messages)
    recent = 2 * min(keep, (len(messages) - 1) // 2)
    assert candidate[len(candidate) - recent:] == messages[len(messages) - recent:], "recent groups untouched"
    split_history(candidate, keep)


@SETTINGS
@given(histories(), st.data())
def test_pending_or_mismatched_history_is_rejected(messages, data):
    broken = deepcopy(messages)
    if data.draw(st.booleans(), label="pending"):
        broken.pop()
        expected = "工具结果尚未收齐，不能压缩。"
    else:
        group = data.draw(st.integers(0, (len(broken) - 1) // 2 - 1), label="group")
        result = broken[2 + 2 * group]["content"]
        result[data.draw(st.integers(0, len(result) - 1), label="block")]["tool_use_id"] = "wrong"
        expected = "每个工具请求必须有且只有一个同ID结果。"
    for call in (lambda m: split_history(m), lambda m: trim_results(m, "r"),
                 lambda m: prepare_context(m, "q", {"archives": [], "summaries": 0, "max_summaries": 2},
                                           lambda _: "r", lambda _: "s", budget=400)):
        snapshot = deepcopy(broken)
        try:
            call(broken)
        except ValueError as error:
            assert str(error) == expected
        else:
            raise AssertionError("a pending or mismatched history must be rejected")
        assert broken == snapshot
