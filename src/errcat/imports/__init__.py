"""Import errors: which distribution installs a module, and which releases have a name.

:mod:`~errcat.imports.modules` reads the modules a wheel installs,
:mod:`~errcat.imports.api` the names a module of a release exports,
:mod:`~errcat.imports.history` says which releases have a name, and
:mod:`~errcat.imports.records` turns these into ordinary records
(``No module named 'sgl_kernel'``, ``cannot import name 'Y' from 'X'``,
``undefined symbol``). :mod:`~errcat.imports.site` tells the matcher that
the import system's frames are never in a traceback. The stack's build
(``benchmarks/build_stack.py``) uses them; nothing here is imported by
``import errcat``.
"""
