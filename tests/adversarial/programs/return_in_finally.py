# A return inside finally swallows the exception (both backends must agree).
def swallow():
    try:
        raise ValueError("lost")
    finally:
        return "kept"  # noqa: B012


def main():
    value = swallow()
    print(value)
    return value
