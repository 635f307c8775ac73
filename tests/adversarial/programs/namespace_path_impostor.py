# A module whose __path__ is a class of the program's that calls itself importlib's `_NamespacePath` (its
# name and module say so) and whose __dict__ is a property that raises: the clean-up between runs, which
# reads a namespace package's folders, must not ask it (it stays in sys.modules: it has a spec).
import importlib.machinery
import sys
import types


class _NamespacePath:
    __module__ = "importlib._bootstrap_external"

    @property
    def __dict__(self):
        print("the program's __dict__ property ran in the recorder's clean-up")
        raise RuntimeError("from the program")


def main():
    module = types.ModuleType("planted_namespace_impostor")
    module.__spec__ = importlib.machinery.ModuleSpec("planted_namespace_impostor", None)
    module.__path__ = _NamespacePath()
    sys.modules["planted_namespace_impostor"] = module
    print("placed")
