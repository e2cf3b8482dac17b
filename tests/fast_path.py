"""What the tests of the C fast path share: skipping a module where it is not built, and the
rulesets with the options they are run on."""

from __future__ import annotations

import pytest

from warboard.hill218 import fast

CONFIGS = [
    ("hill218", {}),
    ("hill218", {"quick_start": True}),
    ("ogre218", {}),
    ("ogre218", {"quick_start": True}),
    ("ogre218", {"damaged_ogres": [2, 1]}),
    ("ogre218", {"damaged_ogres": [0, 2], "quick_start": True}),
]


def require_fast_path() -> None:
    """Skip the calling test module where the extension is not built."""
    if not fast.available():
        pytest.skip("the C fast path warboard.hill218._fastplay is not built (the package was "
                    "installed without a working C compiler)", allow_module_level=True)
