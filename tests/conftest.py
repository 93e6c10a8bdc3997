"""Test-run settings shared by every folder.

`make test` runs the suite on every core (pytest-xdist, ``--dist loadgroup``): a test file
is one group, so it runs on one worker and its module fixtures are built once; a test that
names a group of its own (a slice of a long test) is spread over the workers.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
