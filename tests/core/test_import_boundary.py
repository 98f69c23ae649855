"""What importing ctxscope.core costs and touches (issues 12 and 19), in fresh interpreters.

* ``import ctxscope.core`` imports none of its submodules: every public name is imported from its
  module on first use, and ``from ctxscope.core import X`` still works for every name in
  ``__all__`` (the same object as in its module; the ``TYPE_CHECKING`` imports list the same names).
* The same for ``ctxscope.core.pipeline``: importing it (or only its ``config``, which the
  recorded lens's options name) imports none of its stages, engine or state.
* Importing any core module opens no network stack (``urllib.request``, ``http.client``, ``ssl``).
* No core module touches the process-wide garbage collector.

Start-up *time* is measured by ``bench/bench_startup.py``, never here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ctxscope.core as core

CORE = Path(core.__file__).parent
NETWORK = ("urllib.request", "http.client", "ssl", "email.message")


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_importing_the_package_imports_no_submodule() -> None:
    loaded = run(
        "import sys, ctxscope.core\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('ctxscope.core.'))))"
    )
    assert loaded == ""


def unresolved_exports(package: str) -> str:
    """In a fresh interpreter: the names of ``package.__all__`` that are not their module's object."""
    return run(
        f"import importlib, {package} as package\n"
        "bad = [n for n in package.__all__ if getattr(package, n) is not\n"
        f"       getattr(importlib.import_module('{package}.' + package._MODULE_OF[n]), n)]\n"
        "print(bad)"
    )


def guarded_imports(init: Path) -> dict[str, str]:
    """Name → module of the ``TYPE_CHECKING`` imports of a package's ``__init__.py``."""
    tree = ast.parse(init.read_text())
    guarded = next(
        node for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    )
    return {
        alias.name: (node.module or "")
        for node in guarded.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_every_export_resolves_to_its_modules_object() -> None:
    assert unresolved_exports("ctxscope.core") == "[]"
    code = (
        "from ctxscope.core import ContextManager, open_log\n"
        "print(ContextManager.__module__, open_log.__module__)"
    )
    assert run(code) == "ctxscope.core.pipeline.engine ctxscope.core.reader"
    assert sorted(core.__all__) == sorted(core._MODULE_OF)
    assert set(core.__all__) <= set(dir(core))


def test_type_checkers_see_the_same_names() -> None:
    assert guarded_imports(CORE / "__init__.py") == dict(core._MODULE_OF)


def test_the_pipeline_package_imports_no_stage_until_asked() -> None:
    import ctxscope.core.pipeline as pipeline

    loaded = run(
        "import sys, ctxscope.core.pipeline.config\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('ctxscope.core.pipeline.'))))"
    )
    assert loaded == "ctxscope.core.pipeline.config"
    assert unresolved_exports("ctxscope.core.pipeline") == "[]"
    assert sorted(pipeline.__all__) == sorted(pipeline._MODULE_OF)
    assert set(pipeline.__all__) <= set(dir(pipeline))
    assert guarded_imports(CORE / "pipeline" / "__init__.py") == dict(pipeline._MODULE_OF)


def test_no_core_module_opens_a_network_stack_when_imported() -> None:
    code = (
        "import sys, pkgutil, importlib, ctxscope.core as core\n"
        "for info in pkgutil.walk_packages(core.__path__, 'ctxscope.core.'):\n"
        "    importlib.import_module(info.name)\n"
        f"print(','.join(m for m in {NETWORK!r} if m in sys.modules))"
    )
    assert run(code) == ""


def test_no_core_module_touches_the_garbage_collector() -> None:
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names] if isinstance(node, ast.Import)
                else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )
            if "gc" in names:
                offenders.append(str(path.relative_to(CORE)))
    assert offenders == []
