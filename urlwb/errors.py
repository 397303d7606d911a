"""The workbench's one usage-error type, and the one "the run could not complete".

A bad flag, target, path or configuration: ``urlwb`` reports it in one line and exits with
status 2. Every subcommand raises this (or a subclass, such as ``corpus_store.CorpusError``);
nothing else in the workbench stands for "the user asked for something that cannot be done".
:class:`Incomplete` is the other failure a command reports in one line: the request was sound and
the run could not finish it (exit status 3; :mod:`urlwb.exitcodes`).
"""

from __future__ import annotations


class UsageError(Exception):
    """A bad flag, target, path or configuration: reported in one line, exit status 2."""

    status = 2


class WriteError(UsageError):
    """A file that could not be written (a full disk, a read-only folder): one line naming the
    file and why, a non-zero exit; the file is either whole or not there."""


class Incomplete(Exception):
    """The run could not complete (an oracle, validator or client could not start, a round or a
    suite failed to run): reported in one line, exit status 3 (urlwb.exitcodes.INCOMPLETE)."""

    status = 3
