# except* and an ExceptionGroup: lines are never null.
def main():
    try:
        raise ExceptionGroup("many", [ValueError("a"), TypeError("b")])
    except* ValueError as group:
        print("values", len(group.exceptions))
    except* TypeError:
        print("types")
    raise ExceptionGroup("left", [KeyError("k")])
