# A module that raises at import: a clear end naming its line.
def main():
    return 1


raise RuntimeError("broken at import")
