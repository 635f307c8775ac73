# Exception groups and except*: several failures collected and raised together, handled by type (each
# handler sees a subgroup), nested groups, split and subgroup, notes added, and what is left re-raised.
def validate(record):
    problems = []
    if not record.get("name"):
        problems.append(ValueError("name is empty"))
    if not isinstance(record.get("age"), int):
        problems.append(TypeError(f"age {record.get('age')!r} is not an int"))
    if "email" not in record:
        problems.append(KeyError("email"))
    if problems:
        raise ExceptionGroup(f"record {record.get('id')} invalid", problems)
    return True


def shape(group, depth=0):
    lines = [f"{'  ' * depth}{type(group).__name__}: {group}"]
    for inner in getattr(group, "exceptions", ()):
        lines.extend(shape(inner, depth + 1))
    return lines


def main():
    try:
        validate({"id": 1, "name": "", "age": "ten"})
    except* ValueError as group:
        print("value errors:", [str(e) for e in group.exceptions])
    except* TypeError as group:
        print("type errors:", [str(e) for e in group.exceptions])
    except* KeyError as group:
        print("key errors:", [repr(e) for e in group.exceptions])
    batch = []
    for record in [{"id": 2, "name": "a", "age": 1}, {"id": 3, "name": "b", "age": None, "email": "x"},
                   {"id": 4, "age": 2, "email": "y"}]:
        try:
            validate(record)
        except ExceptionGroup as group:
            group.add_note(f"while checking id {record['id']}")
            batch.append(group)
    outer = ExceptionGroup("batch failed", batch)
    print("\n".join(shape(outer)))
    print("notes:", [g.__notes__ for g in outer.exceptions])
    values, rest = outer.split(ValueError)
    print("split:", values.exceptions[0].exceptions, rest.exceptions[0].exceptions)
    print("subgroup:", outer.subgroup(lambda e: isinstance(e, TypeError)).exceptions[0].exceptions)
    try:
        try:
            raise outer
        except* ValueError:
            print("handled the ValueErrors only")
    except ExceptionGroup as left:
        print("left over:", repr(left.exceptions))
    try:
        raise ExceptionGroup("plain", [OSError("disk"), ZeroDivisionError("zero")])
    except* ArithmeticError as group:
        print("arithmetic:", group.exceptions)
    except* OSError:
        print("os")
    try:
        raise RuntimeError("naked")
    except* RuntimeError as group:
        print("naked wrapped:", type(group).__name__, group.exceptions)
