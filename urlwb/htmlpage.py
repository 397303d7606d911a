"""The workbench's one Markdown-to-HTML path: every report is written as Markdown, and its HTML
page is that Markdown rendered by markdown-it-py (CommonMark with tables), in one
self-contained page with inline CSS.

Raw HTML in the Markdown is not passed through (markdown-it's ``html`` option is off): reports
quote hostile inputs, and an input is text, never markup. Figures that only HTML can show (the
campaign's SVG plots) stand in the Markdown as a paragraph of their own, ``<!-- figure:NAME -->``
(an HTML comment, which Markdown viewers hide); :func:`page` puts the figure where that
paragraph renders.
"""

from __future__ import annotations

import functools
import html
import re

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:1em 0;font-size:13px}th,td{border:1px solid #ddd;padding:3px 7px;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0}tr:nth-child(even) td{background:#fafafa}
code,pre{font:12px ui-monospace,monospace;background:#f3f3f3}pre{padding:8px;overflow-x:auto;white-space:pre-wrap}
td code{word-break:break-all}h2{border-bottom:1px solid #ddd;padding-bottom:2px;margin-top:1.6em}
"""

_FIGURE = re.compile(r"<p>&lt;!-- figure:([\w-]+) --&gt;</p>")


@functools.cache
def _md():
    """The one Markdown renderer, built on first use: ``markdown_it`` is 25 to 45 ms of an
    import, and every command that may write a report imports this module (a ``--help`` among
    them: docs/performance.md)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def cell(text) -> str:
    """``text`` as one Markdown table cell: ``|`` escaped (GFM: also inside a code span), line
    breaks as spaces. The one table-cell escaper of every report."""
    return str(text).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def code_cell(text) -> str:
    """``text`` as code in one table cell: a backtick (which would end the span) as ``'``, then
    :func:`cell`; empty text is an empty cell. Callers shorten a hostile input first
    (:func:`urlwb.cliutil.short`: its repr, cut)."""
    text = str(text)
    return "`" + cell(text.replace("`", "'")) + "`" if text else ""


def figure(name: str) -> str:
    """The Markdown line where figure ``name`` goes in the HTML page."""
    return f"<!-- figure:{name} -->"


_HEADING = re.compile(r"<h([2-6])>(.*?)</h\1>")


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it (lowercase, spaces to hyphens, punctuation
    dropped), so that ``[x](#witness-12)`` works on GitHub and in this page alike."""
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def page(title: str, markdown: str, figures: dict[str, str] | None = None) -> str:
    """A self-contained HTML page of ``markdown`` (rendered by markdown-it-py), with each
    ``figure(name)`` marker replaced by ``figures[name]`` (markers without a figure vanish) and
    each heading below the title given its anchor."""
    body = _md().render(markdown)
    body = _HEADING.sub(lambda m: f'<h{m[1]} id="{slug(m[2])}">{m[2]}</h{m[1]}>', body)
    body = _FIGURE.sub(lambda m: (figures or {}).get(m.group(1), ""), body)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            f"{body}</body></html>\n")
