"""Files a run leaves in the temp dir: found by diffing it, collected, then removed.

The lesson's archives live in a `tempfile.TemporaryDirectory(prefix="lesson8-")`
made by the setup code. The Files panel shows what is there after the run; the
recorder then deletes what the run created so re-runs do not accumulate.
"""
from __future__ import annotations

import os
import shutil
import tempfile

PREVIEW_CAP = 4000     # characters of content per file
FILES_CAP = 50         # files listed per run


class TempFiles:
    """Snapshot of the temp dir before the run; `collect` and `clean` after it."""

    def __init__(self, root: str | None = None) -> None:
        self.root = root or tempfile.gettempdir()
        self.before = self._names()

    def _names(self) -> set[str]:
        try:
            return set(os.listdir(self.root))
        except OSError:
            return set()

    def created(self) -> list[str]:
        """Entries of the temp dir that did not exist before the run, sorted."""
        return sorted(self._names() - self.before)

    def collect(self) -> list[dict]:
        """Every regular file under the new entries: path relative to the temp dir, size, preview."""
        files: list[dict] = []
        for entry in self.created():
            top = os.path.join(self.root, entry)
            if os.path.isdir(top) and not os.path.islink(top):
                for folder, dirs, names in os.walk(top):
                    dirs.sort()
                    for name in sorted(names):
                        files.append(self._describe(os.path.join(folder, name)))
            elif os.path.isfile(top):
                files.append(self._describe(top))
            if len(files) >= FILES_CAP:
                break
        return files[:FILES_CAP]

    def _describe(self, path: str) -> dict:
        relative = os.path.relpath(path, self.root).replace(os.sep, "/")
        try:
            size = os.path.getsize(path)
            with open(path, "rb") as stream:
                raw = stream.read(PREVIEW_CAP * 4)
            text = raw.decode("utf-8", errors="replace")
            preview = text[:PREVIEW_CAP]
            truncated = size > len(raw) or len(text) > PREVIEW_CAP
        except OSError as error:
            size, preview, truncated = 0, f"<unreadable: {error.strerror}>", False
        return {"path": relative, "name": os.path.basename(path), "size": size,
                "preview": preview, "truncated": truncated}

    def clean(self) -> None:
        """Remove what the run created (best effort: a file still open elsewhere may stay)."""
        for entry in self.created():
            path = os.path.join(self.root, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass
