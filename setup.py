"""The wheel carries Stepwise's front end and its npm pins, which live outside py/ (site/, package.json,
package-lock.json): build_py copies them to `stepwise/bundled/`, where stepwise.assets finds them in
an installed wheel. An editable install reads them in the checkout instead. pyproject.toml says the rest."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FRONT_END = ("site",)
PINS = ("package.json", "package-lock.json")


class WithFrontEnd(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "stepwise" / "bundled"
        for folder in FRONT_END:
            shutil.copytree(HERE / folder, target / folder, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
        for name in PINS:
            shutil.copyfile(HERE / name, target / name)


setup(cmdclass={"build_py": WithFrontEnd})
