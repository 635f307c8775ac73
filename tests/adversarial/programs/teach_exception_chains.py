# Exception chaining: raise ... from (__cause__), an exception raised while handling another (__context__),
# `from None` hiding the context, walking the chain, and the traceback of a chained exception printed as
# the interpreter would (this file's path shortened). The run ends in a chained exception.
import traceback


class ConfigError(Exception):
    pass


def parse_port(text):
    try:
        return int(text)
    except ValueError as error:
        raise ConfigError(f"bad port {text!r}") from error


def lookup(table, key):
    try:
        return table[key]
    except KeyError:
        raise RuntimeError(f"no setting {key}")      # implicit chaining: __context__


def quiet_lookup(table, key):
    try:
        return table[key]
    except KeyError:
        raise LookupError(f"missing {key}") from None


def chain_of(error):
    names = []
    while error is not None:
        names.append(f"{type(error).__name__}({error})")
        error = error.__cause__ or error.__context__
    return " <- ".join(names)


def load(settings):
    try:
        port = parse_port(settings["port"])
    except ConfigError:
        raise ValueError("could not load settings")
    return port


def main():
    try:
        parse_port("80a")
    except ConfigError as error:
        print("cause:", repr(error.__cause__), "suppress:", error.__suppress_context__)
        print(chain_of(error))
    try:
        lookup({}, "host")
    except RuntimeError as error:
        print("context:", repr(error.__context__), "cause:", error.__cause__)
    try:
        quiet_lookup({}, "user")
    except LookupError as error:
        print("from None:", error.__cause__, error.__suppress_context__, repr(error.__context__))
    try:
        load({"port": "x"})
    except ValueError as error:
        print(chain_of(error))
        text = "".join(traceback.format_exception(error)).replace(__file__, "<this file>")
        print(text)
    print(parse_port("8080"))
    parse_port("eighty")
