"""Planted silence for ``tests/workbench/test_silence.py``: every ``progress.task`` and
``progress.heartbeat`` a no-op, as a pytest plugin, to see the check fail each long command:

    PYTHONPATH=$PWD:$PWD/tests/workbench python -m pytest -p planted_mute tests/workbench/test_silence.py

(every test fails but test_a_silent_command_fails_the_check, which wants the silence)."""

import contextlib

from urlwb import progress


class _Mute:
    note, done, total = "", 0, None

    def advance(self, *a, **k):
        pass

    def tick(self):
        pass


@contextlib.contextmanager
def mute(*a, **k):
    """``progress.task`` / ``heartbeat`` that says nothing."""
    yield _Mute()


def pytest_configure(config):
    progress.task = mute
    progress.heartbeat = mute
