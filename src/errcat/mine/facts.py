"""What the scan of one file produces: plain, picklable facts, and the skip reasons.

A :class:`_FileScan` is everything the resolver needs from one file (its raise
sites, the exception classes and factory functions it defines, the names it
re-exports), so it can be computed in a worker process or cached by content.

>>> _BUILTINS["IOError"], _KNOWN_ALIASES["socket.timeout"]
('OSError', 'TimeoutError')
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass

from errcat.mine.templates import _Alts

#: What ``self.<name>(...)`` returns is noted as an :class:`_AttrDef` of attribute
#: ``<name>()``, one per ``return`` of the method (the reader of guards follows it).
RETURNS_SUFFIX = "()"

#: ``ref`` prefix of a placeholder that reads a name imported from another module
#: (``import:pkg.tips.TIPS``): the resolver puts in that module's constant.
IMPORTED = "import:"

# Why a raise site gave no record, as the summary shows it (MineStats.skipped keys).
NO_MESSAGE = "no message"
NO_STATIC_TEXT = "no static text"
NON_STRING = "non-string message"
EXISTING_OBJECT = "raises an existing exception object"
DYNAMIC_CLASS = "exception class chosen at run time"
STARRED = "message from *args or **kwargs"
KEYWORD_ONLY = "message passed by keyword"
OWN_FORMAT = "class formats its own message"
CONTROL_FLOW = "control-flow exception"
TOO_MANY = "too many message variants"
NO_ROUND_TRIP = "template does not round-trip"
READS_AS_EXCEPTION = "logged message reads as an exception line"
LOGGED_AND_RAISED = "logged message the same function raises"
FEW_WORDS = "error body says too few words of its own"


_CONTROL_FLOW = frozenset(
    {"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt"}
)
_UNICODE_ERRORS = frozenset({"UnicodeDecodeError", "UnicodeEncodeError", "UnicodeTranslateError"})


def _builtin_exceptions() -> dict[str, str]:
    names = {
        name: obj.__name__
        for name, obj in vars(builtins).items()
        if isinstance(obj, type) and issubclass(obj, BaseException)
    }
    # Names of newer Pythons, so that mining does not depend on the interpreter.
    for extra in ("ExceptionGroup", "BaseExceptionGroup", "EncodingWarning"):
        names.setdefault(extra, extra)
    names.setdefault("PythonFinalizationError", "PythonFinalizationError")
    return names


#: Builtin exception names mapped to the name the traceback prints (``IOError`` -> ``OSError``).
_BUILTINS = _builtin_exceptions()


#: Well-known aliases of builtin exceptions in the standard library.
_KNOWN_ALIASES = {
    "socket.error": "OSError",
    "os.error": "OSError",
    "select.error": "OSError",
    "socket.timeout": "TimeoutError",
}


@dataclass(frozen=True, slots=True)
class _Arg:
    """One argument of an exception constructor call."""

    alts: _Alts | None  # its static string value(s), when it has one
    source: str  # the argument as written (``ast.unparse``)
    as_str: str | None = None  # str() of a constant argument
    as_repr: str | None = None  # repr() of a constant argument
    non_string: bool = False  # a constant that is not a string
    ref: str | None = None


@dataclass(frozen=True, slots=True)
class _Call:
    """The arguments an exception class (or a function) is called with."""

    args: tuple[_Arg, ...] = ()
    kwargs: tuple[tuple[str, _Arg], ...] = ()
    starred: bool = False


@dataclass(frozen=True, slots=True)
class _ClassRef:
    """The class raised at a site: ``kind`` is builtin, local, imported or written.

    ``kind`` is ``factory`` when the site raises what a function returns
    (``raise make_error(...)``); ``name`` is then the function's qualified name.
    """

    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class _Def:
    """An assignment to a local the guard reads: the value's source and when it ran.

    ``clauses`` are the ``if`` tests (source, truth) around the assignment
    inside the function; ``kind`` is ``"="`` or ``"for"`` (a loop variable,
    ``expr`` the iterable).
    """

    name: str
    expr: str
    clauses: tuple[tuple[str, bool], ...] = ()
    kind: str = "="


@dataclass(frozen=True, slots=True)
class _Guard:
    """What leads to a raise site: the tests on the path to it, in its function.

    ``clauses`` hold ``(source, truth)``: the raise happens when each test has
    that truth value (an ``else`` branch or an early ``return``/``continue``
    gives ``False``; an ``assert`` gives its test with ``False``). ``defs``
    are the assignments of the locals those tests read, followed back.
    """

    function: str
    doc: str | None = None
    params: tuple[str, ...] = ()
    clauses: tuple[tuple[str, bool], ...] = ()
    defs: tuple[_Def, ...] = ()
    handler: str | None = None  # the ``except`` clause the raise is in ("" for a bare one)
    module_level: bool = False  # raised by the module's own code (``function`` is the module)
    #: Functions of the mined code its tests call: (callee as written, dotted name, is a method).
    calls: tuple[tuple[str, str, bool], ...] = ()
    #: The class whose method raises (dotted), for ``self.x`` (``None`` outside a method).
    owner: str | None = None
    #: Parameters annotated with classes: (parameter, dotted class names of its annotation).
    annotations: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Names the tests and locals read that the module imports or defines: (as written, dotted).
    names: tuple[tuple[str, str], ...] = ()
    #: Indexes of ``clauses`` that an earlier ``if test: raise ...`` put there: making such a
    #: clause false raises that other error, so it is no way out.
    rejected: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _AttrDef:
    """``self.attr = value`` in a method of a class of the mined code, with what the value reads.

    ``owner`` is the class (dotted), ``function`` the method; ``params``,
    ``defs``, ``calls``, ``names`` and ``annotations`` describe the method as a
    :class:`_Guard` does, so that the value can be read as a guard's test is.
    """

    owner: str
    attr: str
    expr: str
    function: str
    params: tuple[str, ...] = ()
    defs: tuple[_Def, ...] = ()
    calls: tuple[tuple[str, str, bool], ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    annotations: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class _ClassFields:
    """A class of the mined code: its bases (dotted) and the fields its body annotates."""

    name: str
    bases: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Binding:
    """What a call passes for one parameter of a function of the mined code.

    ``callee`` is the called function's dotted name as the calling module sees
    it; ``key`` the parameter's name (a keyword argument) or ``#i`` (the
    ``i``-th positional argument, counted after ``self`` when ``method``);
    ``expr`` the argument's source and ``defs`` the assignments of the
    caller's locals it reads; ``caller`` the calling function's dotted name.
    """

    callee: str
    key: str
    expr: str
    defs: tuple[_Def, ...] = ()
    caller: str = ""
    method: bool = False


@dataclass(frozen=True, slots=True)
class _Reads:
    """The attributes a function reads on one of its parameters, and where it passes it on.

    ``attrs`` are read as ``param.attr`` or ``getattr(param, "attr")``, also
    through a local assigned from the parameter or from a call on it
    (``cfg = resolving_view(server_args)``); ``forwards`` are the calls that
    pass the parameter on, as ``(callee, key, method)`` (see :class:`_Binding`).
    """

    function: str
    param: str
    attrs: tuple[str, ...] = ()
    forwards: tuple[tuple[str, str, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class _Option:
    """A command-line flag, config field or settings variable the mined project defines.

    ``dest`` is the attribute its value is read as (``args.dest``,
    ``server_args.dest``); ``flag`` is how the user sets it (``--dest-name``,
    or an environment variable for ``kind == "env"``).
    """

    dest: str
    flag: str
    kind: str = "flag"  # "flag" or "env"
    help: str = ""
    choices: tuple[str, ...] = ()
    default: str | None = None
    is_bool: bool = False


@dataclass(frozen=True, slots=True)
class _RawSite:
    line: int
    qualname: str
    cls: _ClassRef
    args: tuple[_Arg, ...] = ()
    kwargs: tuple[tuple[str, _Arg], ...] = ()
    starred: bool = False
    is_assert: bool = False
    skip: str | None = None
    guard: _Guard | None = None
    #: The class is a parameter of the raising function (``raise exception(msg)``):
    #: each caller chooses it; ``cls`` is the parameter's default, if it has one.
    caller_class: bool = False
    #: A log call that prints a traceback after its line (``logger.exception``).
    traceback: bool = False
    #: The HTTP status of an error body the site builds (:mod:`errcat.mine.responses`).
    status: int | None = None


@dataclass(frozen=True, slots=True)
class _ClassInfo:
    """What the miner knows of a class defined in the mined code.

    ``init`` is ``"none"`` (no ``__init__``), ``"nosuper"`` (an ``__init__``
    that does not call the base's, or passes its ``*args`` through: the call's
    own arguments are the exception's args), ``"super"`` (it calls the base's
    ``__init__`` with ``super_calls``: the explicit base, or ``None`` for
    ``super()``, and the arguments) or ``"opaque"``. ``str_message`` is what
    ``__str__`` returns, when the class defines it; ``self_attrs`` what
    ``__init__`` stores in ``self.<attr>``.
    """

    name: str  # module.qualname
    bases: tuple[str, ...]
    params: tuple[str, ...] = ()
    defaults: tuple[tuple[str, _Arg], ...] = ()
    varargs: bool = False
    init: str = "none"
    super_calls: tuple[tuple[str | None, _Call], ...] = ()
    str_message: _Alts | None = None
    self_attrs: tuple[tuple[str, _Alts], ...] = ()


@dataclass(frozen=True, slots=True)
class _FuncInfo:
    """A function of the mined code that returns exceptions (``return ValueError(...)``)."""

    name: str  # module.qualname
    params: tuple[str, ...]
    defaults: tuple[tuple[str, _Arg], ...]
    varargs: bool
    returns: tuple[tuple[_ClassRef, _Call], ...]


@dataclass(frozen=True, slots=True)
class _FileScan:
    source: str  # the file as found on disk
    file_path: str  # the record's filePath
    module: str
    sites: tuple[_RawSite, ...] = ()
    snippets: tuple[tuple[int, int, int, str], ...] = ()  # line, start, end, code
    classes: tuple[_ClassInfo, ...] = ()
    functions: tuple[_FuncInfo, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    consts: tuple[tuple[str, _Alts], ...] = ()  # module.NAME -> its literal value(s)
    options: tuple[_Option, ...] = ()  # flags and settings defined here
    fields: tuple[tuple[str, tuple[_Option, ...]], ...] = ()  # dataclass -> its fields as flags
    parsed: tuple[str, ...] = ()  # classes handed to a parser generator here
    envs: tuple[str, ...] = ()  # environment variables read or registered here
    bindings: tuple[_Binding, ...] = ()  # arguments that may read an option, by call
    signatures: tuple[tuple[str, tuple[str, ...]], ...] = ()  # function -> positional params
    reads: tuple[_Reads, ...] = ()  # what functions read on their parameters
    attr_defs: tuple[_AttrDef, ...] = ()  # self.x = ... in methods
    class_fields: tuple[_ClassFields, ...] = ()  # every class: bases and annotated fields
    #: Literal collections of texts (dict keys, list/set/tuple items, enum members) by dotted name.
    collections: tuple[tuple[str, tuple[str, ...]], ...] = ()
    imported: tuple[str, ...] = ()  # the top-level packages the module imports
    called: tuple[str, ...] = ()  # bare names of the functions and methods its code calls
    script: bool = (
        False  # runs as a program (``if __name__ == "__main__":``): its flags are its own
    )
    reraises: int = 0
    error: str | None = None
