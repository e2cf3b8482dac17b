"""Builds the optional C fast path; everything else about the package is in pyproject.toml.

``optional=True``: without a working C compiler the extension is skipped with a warning and the
package installs as pure Python (``warboard.hill218.fast.available()`` is then False).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "warboard.hill218._fastplay",
            sources=["src/warboard/hill218/_fastplay.c"],
            # #included by _fastplay.c
            depends=["src/warboard/hill218/_fastplay_vector.c",
                     "src/warboard/hill218/_fastsearch.c"],
            optional=True,
        ),
    ],
)
