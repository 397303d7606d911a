"""Small helpers shared by the ``urlwb`` subcommands of the fuzzing side."""

from __future__ import annotations

import sys


def one_line_errors(parser) -> None:
    """Make ``parser`` report a bad flag or argument in one line (exit status 2), without the
    multi-line usage block argparse prints by default; ``--help`` still shows the usage."""
    def error(message: str):
        print(f"{parser.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)
    parser.error = error


def shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
