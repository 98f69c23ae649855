"""Shared fixtures. Real data lives in ../shared beside the checkout and is never copied in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CTXSCOPE_SHARED", REPO.parent / "shared")).resolve()


def shared_path(*parts: str) -> Path:
    """Path inside ../shared; skips the calling test with a clear reason when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the ../shared folder beside the checkout); it is absent here")
    return path


@pytest.fixture
def shared() -> Path:
    return shared_path()
