"""page.py - the one HTML shell of the native spectator's pages.

Constant text: it names the page's script and style and says what to do
when the script is missing; it never holds game data, so nothing in it
needs escaping. The script (web/src/server/main.js, bundled as
spectator.js) reads the routes and renders with textContent.
"""

from __future__ import annotations

MISSING = (
    "The spectator's script is not built (web/dist/spectator.js is missing): "
    "run ./scripts/build in the repository, then restart the MCP server."
)


def shell(*, script: str | None, style: str | None) -> bytes:
    head = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>NetHack for software agents: spectator</title>",
        '<link rel="icon" href="data:,">',
    ]
    if style:
        head.append(f'<link rel="stylesheet" href="{style}">')
    if script:
        head.append(f'<script type="module" src="{script}"></script>')
    body = [
        "</head>",
        "<body>",
        '<header class="site">',
        '<h1><a href="/">NetHack for software agents</a></h1>',
        '<div id="boot" class="boot" aria-live="polite">read-only spectator of this MCP server</div>',
        "</header>",
        f'<main id="main"><p class="muted">{"Loading…" if script else MISSING}</p></main>',
        "<noscript>The spectator renders the games with JavaScript.</noscript>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(head + body).encode("utf-8")
