"""An author's course: a folder anywhere on disk holding their code, scenario files and prose.

    my-course/
      py/<package>/core/<file>.py        the code a lesson shows, unmodified (standard library only)
      scenarios/<slug>.toml              its cases, limits and stages (stepwise.scenario)
      scenarios/<slug>/setup.py          what each case prepares
      lessons/<slug>/lesson.toml         names the scenario file; the index page's summaries
      lessons/<slug>/lesson.zh.md, .en.md  the prose, with ```debugger and ```source blocks

Every path an author writes (lesson.toml's `scenarios`, a scenario file's `source`, a ```source block's
file) is relative to the course's root, and is served at that path in the built site. This repository
is one such course. Stepwise's own files (the front end, the recorder) come from `stepwise.assets`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

LESSONS = "lessons"


class BuildError(Exception):
    """An authoring mistake, or a missing tool: the message names the file, the line and what to fix."""


@dataclass(frozen=True)
class Course:
    root: Path
    lessons_dirs: tuple[Path, ...]    # folders of lesson folders: `lessons/`, and any `--lessons` given

    @classmethod
    def at(cls, root: Path, lessons_dirs: list[Path] | None = None) -> Course:
        """The course in `root`; `lessons_dirs` (relative to `root`, or absolute) replace its `lessons/`."""
        root = root.resolve()
        if not root.is_dir():
            raise BuildError(f"{root}: no such folder; a course is a folder holding {LESSONS}/, scenarios/ and "
                             "its code (`stepwise new <slug>` starts one)")
        folders = tuple((root / folder).resolve() for folder in (lessons_dirs or [Path(LESSONS)]))
        for folder in folders:
            if not folder.is_dir():
                raise BuildError(f"{folder}: no such folder of lessons; a course keeps each lesson in "
                                 f"{LESSONS}/<slug>/ (`stepwise new <slug>` writes one)")
        return cls(root, folders)

    def path(self, relative: str) -> Path:
        """A file an author named, from the course's root."""
        return self.root / relative

    def named(self, path: Path) -> str:
        """How an error names a file: from the course's root when it is inside it."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
