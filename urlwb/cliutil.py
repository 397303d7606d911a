"""Small helpers shared by the ``urlwb`` subcommands."""

from __future__ import annotations


def shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
