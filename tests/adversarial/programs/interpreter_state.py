# A program that changes interpreter state and never puts it back.
import gc
import logging
import os
import sys
import tempfile


def main():
    sys.path.insert(0, "/nowhere")
    sys.modules["fake_module"] = object()
    sys.setrecursionlimit(50)
    sys.setprofile(lambda *a: None)
    logging.basicConfig(level=logging.DEBUG)
    os.chdir("/")
    tempfile.tempdir = "/"
    gc.disable()
    gc.callbacks.append(lambda phase, info: print("collected", phase))   # would run in every later run
    os.environ["STEPWISE_LEAK"] = "1"
    sys.argv.append("--leak")
    print("changed")
