"""mkdocs hook: a power written 2^31 in the prose is set as a superscript.

Why a hook: pymdownx.caret (maintained, enabled in mkdocs.yml) does the setting; it needs the
closing caret, `2^31^`, which writers forget. The hook only adds that caret. Writing `2^31^`
everywhere and a lint rule against an open power would make the hook unnecessary.

pymdownx.caret sets `2^31^` as 2 with a raised 31; a writer who types the usual `2^31` would get
the caret printed as is. This hook closes such a power (`2^31` -> `2^31^`) in the page's
markdown, outside fenced blocks and code spans, before the page is converted, so that both
spellings come out raised. A power already closed, and every caret in code, is left alone.
tests/browser/ checks that no `2^31` is left in the text of a page.
"""

import re

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+).+?\1")
OPEN_POWER = re.compile(r"(?<![\w^])(\d+)\^(\d+)(?![\d^])")


def close_powers(text: str) -> str:
    """The prose of text, outside code spans, with every open power closed."""
    pieces, start = [], 0
    for span in CODE_SPAN.finditer(text):
        pieces += [OPEN_POWER.sub(r"\1^\2^", text[start : span.start()]), span.group(0)]
        start = span.end()
    pieces.append(OPEN_POWER.sub(r"\1^\2^", text[start:]))
    return "".join(pieces)


def on_page_markdown(markdown, page, config, files):
    lines, fence = [], None
    for line in markdown.split("\n"):
        opened = FENCE.match(line)
        if opened and (fence is None or opened.group(1).startswith(fence)):
            fence = opened.group(1)[:3] if fence is None else None
            lines.append(line)
        elif fence is None and not line.lstrip().startswith("<!--"):
            lines.append(close_powers(line))
        else:
            lines.append(line)
    return "\n".join(lines)
