# try/except/else/finally: the order the blocks run in when nothing is raised, when the except catches,
# when nothing catches (finally still runs), a return in try with finally after it, a finally that
# overrides the return, except clauses tried in order (the first match wins), and a bare raise re-raising.
def attempt(value):
    log = []
    try:
        log.append("try")
        result = 10 / value
    except ZeroDivisionError:
        log.append("except ZeroDivisionError")
        result = None
    except TypeError as error:
        log.append(f"except TypeError ({error})")
        result = None
    else:
        log.append("else")
    finally:
        log.append("finally")
    return result, log


def returns_in_try():
    try:
        print("  in try, about to return")
        return "from try"
    finally:
        print("  finally runs before the return completes")


def overrides():
    try:
        return "try"
    finally:
        return "finally"        # noqa: B012 - the lesson's point


def order_of_handlers(error):
    try:
        raise error
    except LookupError:
        return "LookupError (base class first wins)"
    except KeyError:
        return "KeyError (never reached)"
    except Exception as other:
        return f"Exception: {type(other).__name__}"


def reraise():
    try:
        int("nope")
    except ValueError:
        print("  logging the error, then re-raising")
        raise


def main():
    for value in [2, 0, "x"]:
        print(repr(value), attempt(value))
    try:
        try:
            print("  outer try")
            [].pop()
        finally:
            print("  finally without a handler")
    except IndexError as error:
        print("caught outside:", error)
    print(returns_in_try())
    print(overrides())
    for error in [KeyError("k"), IndexError("i"), ValueError("v")]:
        print(order_of_handlers(error))
    try:
        reraise()
    except ValueError as error:
        print("caller got:", error)
    for i in range(3):
        try:
            if i == 1:
                continue
            print("  body", i)
        finally:
            print("  finally", i)
    count = 0
    while True:
        try:
            count += 1
            if count == 3:
                break
        finally:
            print("  loop finally", count)
    print("done at", count)
