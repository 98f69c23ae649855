"""Loading a module of bench/ (not a package) in a test, as the bench scripts import it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as the module ``name`` (registered, so its own imports of it resolve)."""
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
