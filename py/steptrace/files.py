"""The files a run made: what is in its private temp dir and working directory afterwards.

`isolation.CleanRun` gives each run its own two folders and removes them after it,
so listing them is exact: nothing another process wrote is listed, and nothing is
ever removed here. Only regular files are read (a FIFO would block, a device never
end); a symbolic link is listed, not followed.
"""
from __future__ import annotations

import os
import stat
from builtins import OSError, len, open, sorted  # captured at import: a lesson may rebind the builtins

PREVIEW_CAP = 4000     # characters of content per file
FILES_CAP = 50         # files listed per run
WALK_CAP = 2000        # directory entries looked at per run


def collect(temp_dir: str, work_dir: str) -> list[dict]:
    """Every file under the run's temp dir (paths relative to it, as the lesson prints them)
    and its working directory (paths starting with "./"), sorted, at most `FILES_CAP`."""
    files: list[dict] = []
    budget = [WALK_CAP]
    for root, prefix in ((temp_dir, ""), (work_dir, "./")):
        _walk(root, root, prefix, files, budget)
    return files[:FILES_CAP]


def _walk(root: str, folder: str, prefix: str, files: list[dict], budget: list[int]) -> None:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return
    for name in names:
        if len(files) >= FILES_CAP or budget[0] <= 0:
            return
        budget[0] -= 1
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            _walk(root, path, prefix, files, budget)
        elif stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode):
            files.append(_describe(root, path, prefix, info))


def _describe(root: str, path: str, prefix: str, info: os.stat_result) -> dict:
    relative = prefix + os.path.relpath(path, root).replace(os.sep, "/")
    entry = {"path": relative, "name": os.path.basename(path), "size": info.st_size, "preview": "",
             "truncated": False}
    if stat.S_ISLNK(info.st_mode):
        entry["preview"] = f"<symbolic link to {os.readlink(path)}>"
        return entry
    try:
        with open(path, "rb") as stream:
            raw = stream.read(PREVIEW_CAP * 4)
    except OSError as error:
        entry["preview"] = f"<unreadable: {error.strerror}>"
        return entry
    text = raw.decode("utf-8", errors="replace")
    entry["preview"] = text[:PREVIEW_CAP]
    entry["truncated"] = info.st_size > len(raw) or len(text) > PREVIEW_CAP
    return entry
