"""Describe an exception as data, without running the program's code.

`str(error)` would call a user `__str__` (which may print, loop or raise) and, through
`BaseException.__str__`, the `__str__` of whatever the program passed as an argument.
The message is therefore built from the exception's `args` the way
`BaseException.__str__` would, with the previews' no-user-code rules; only the C
`__str__` of builtin exceptions with scalar arguments (OSError's "[Errno 2] …",
KeyError's quoted key) is called, since it can run nothing else.
"""
from __future__ import annotations

import types

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    AttributeError,
    BaseException,
    BaseExceptionGroup,
    Exception,
    all,
    dict,
    id,
    len,
    str,
    tuple,
    type,
)

from .previews import EXACT_SCALARS, Previewer, cut, named

MESSAGE_CAP = 2000
_exc_args = BaseException.__dict__["args"].__get__
_type_mro = type.__dict__["__mro__"].__get__
_type_dict = type.__dict__["__dict__"].__get__
_type_name = type.__dict__["__name__"].__get__
_base_str = BaseException.__dict__["__str__"]
_group_str = BaseExceptionGroup.__dict__["__str__"]
_group_message = BaseExceptionGroup.__dict__["message"].__get__
_group_exceptions = BaseExceptionGroup.__dict__["exceptions"].__get__
_C_SLOTS = (types.WrapperDescriptorType, types.MethodDescriptorType, types.BuiltinFunctionType)
_previewer = Previewer(items_cap=8, depth_cap=3, nodes_cap=60)


def forget() -> None:
    """Let go of the exception classes seen (called at the end of each run)."""
    _previewer.forget()


def describe_exception(error: BaseException, message: str | None = None) -> dict:
    """{"type", "message"} of an exception, bounded; no user `__str__`/`__repr__` runs. The one
    way py/steptrace turns an exception into data. `message`: said instead of the exception's own
    (a setup or entry that does not compile gives its bare `msg`: its line is said apart)."""
    cls = type(error)
    return {"type": _type_name(cls), "message": cut(_message(error, cls) if message is None else message, MESSAGE_CAP)}


def exception_text(error: BaseException) -> str:
    """`Type: message` of an exception (`describe_exception`), for the recorder's own faults."""
    description = describe_exception(error)
    return f"{description['type']}: {description['message']}"


def _message(error: BaseException, cls: type) -> str:
    try:
        args = _exc_args(error)
    except Exception:  # noqa: BLE001
        return ""
    if type(args) is not tuple:
        return ""
    found = _str_slot(cls)
    if found is _group_str:         # BaseExceptionGroup's own C __str__: "message (n sub-exceptions)"
        message, inner = _group_message(error), _group_exceptions(error)
        if type(message) is str and type(inner) is tuple:
            return f"{message} ({len(inner)} sub-exception{'' if len(inner) == 1 else 's'})"
    scalars = all(_scalar(arg) for arg in args)
    if found is not _base_str and type(found) in _C_SLOTS and scalars and _plain_state(error, cls):
        try:
            text = str(error)
            if type(text) is str:
                return text
        except Exception:  # noqa: BLE001
            pass
    if len(args) == 0:
        return ""
    if len(args) == 1:
        arg = args[0]
        if type(arg) is str:
            return arg
        preview = _previewer.preview(arg)
        return preview["v"] if type(preview.get("v")) is str and preview.get("len") == len(preview["v"]) \
            else preview["r"]
    return _previewer.preview(args)["r"]


def _scalar(value: object) -> bool:
    """An exact scalar, or a tuple of them (SyntaxError's location)."""
    if type(value) is tuple:
        return all(id(type(item)) in EXACT_SCALARS for item in value)
    return id(type(value)) in EXACT_SCALARS


def _str_slot(cls: type) -> object:
    """The `__str__` that `str(error)` would call: the first one on the MRO."""
    for klass in _type_mro(cls):
        found = named(_type_dict(klass), "__str__")
        if found is not None:
            return found
    return None


def _plain_state(error: BaseException, cls: type) -> bool:
    """True when everything a builtin `__str__` may format is an exact scalar: the instance
    dict's values and C member fields (OSError's filename, SyntaxError's text)."""
    for klass in _type_mro(cls):
        for name, member in _type_dict(klass).items():
            if type(member) is types.MemberDescriptorType or (type(name) is str and name == "__dict__" and
                                                               type(member) is types.GetSetDescriptorType):
                try:
                    value = member.__get__(error)
                except AttributeError:
                    continue
                except Exception:  # noqa: BLE001
                    return False
                if type(name) is str and name == "__dict__":
                    if type(value) is not dict or not all(id(type(v)) in EXACT_SCALARS for v in dict.values(value)):
                        return False
                elif not _scalar(value):
                    return False
    return True
