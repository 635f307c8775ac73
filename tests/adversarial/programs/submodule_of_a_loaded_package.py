# entry: print(main())
# The run imports a submodule of a package loaded before it (json.tool binds itself on json). The next
# run finds it imported already, so its import binds nothing: the binding must have been kept.
import json.tool


def main():
    return json.tool.__name__
