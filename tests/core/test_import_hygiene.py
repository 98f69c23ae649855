"""ctxscope.core must not import any UI library; proven in a fresh interpreter via sys.modules."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = ("textual", "rich", "watchfiles", "plotext", "textual_plotext", "ctxscope.tui")


def test_core_imports_no_ui_library() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import ctxscope.core as core\n"
        "for info in pkgutil.walk_packages(core.__path__, 'ctxscope.core.'):\n"
        "    importlib.import_module(info.name)\n"
        f"forbidden = {FORBIDDEN!r}\n"
        "bad = sorted(m for m in sys.modules\n"
        "             if m.split('.')[0] in forbidden or m.startswith('ctxscope.tui'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"core pulled in UI modules: {result.stdout.strip()}"


def test_no_top_level_core_or_tui_module_installed() -> None:
    code = (
        "import importlib.util, os, sys\n"
        "sys.path = [p for p in sys.path if p not in ('', os.getcwd())]\n"
        "print(importlib.util.find_spec('core') is None and importlib.util.find_spec('tui') is None)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    assert result.stdout.strip() == "True"


def test_the_status_line_imports_no_adapter_and_no_analysis() -> None:
    """``ctxscope statusline`` runs after every Claude Code message: parsing its command line and
    reading the tail import neither the adapters package (every format) nor the snapshot layer."""
    code = (
        "import sys\n"
        "from ctxscope.tui.cli import build_parser\n"
        "build_parser('statusline')\n"
        "import ctxscope.core.statusline\n"
        "heavy = ('ctxscope.core.adapters', 'ctxscope.core.snapshot', 'ctxscope.core.analysis', 'rich')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"the status line pulled in: {result.stdout.strip()}"
