# contextlib: a @contextmanager with setup and cleanup around its yield (cleanup in finally, an exception
# thrown in at the yield), suppress, ExitStack closing what it entered in reverse plus callbacks, nullcontext,
# redirect_stdout into a StringIO, and a generator manager that swallows an error.
import contextlib
import io
from contextlib import ExitStack, contextmanager, redirect_stdout, suppress


@contextmanager
def timer_like(name):
    print(f"start {name}")
    try:
        yield name.upper()
    except ValueError as error:
        print(f"{name} saw {error!r}")
        raise
    finally:
        print(f"stop {name}")


@contextmanager
def swallowing():
    try:
        yield
    except ZeroDivisionError:
        print("swallowed a division by zero")


@contextmanager
def resource(name, log):
    log.append(f"open {name}")
    yield name
    log.append(f"close {name}")


def main():
    with timer_like("load") as value:
        print("inside with", value)
    try:
        with timer_like("parse"):
            raise ValueError("bad token")
    except ValueError:
        print("re-raised to the caller")
    with swallowing():
        print(10 / 0)
    print("went on")
    with suppress(FileNotFoundError, KeyError):
        {}["missing"]
    print("suppressed a KeyError")
    log = []
    with ExitStack() as stack:
        names = [stack.enter_context(resource(n, log)) for n in ("a", "b", "c")]
        stack.callback(log.append, "callback ran")
        log.append(f"using {names}")
    print(log)
    with ExitStack() as stack:
        stack.enter_context(resource("kept", log))
        moved = stack.pop_all()
    log.append("stack exited")
    moved.close()
    print(log[-3:])
    with contextlib.nullcontext(42) as answer:
        print("nullcontext gives", answer)
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        print("captured line")
        print("another")
    print("buffer holds", repr(buffer.getvalue()))
