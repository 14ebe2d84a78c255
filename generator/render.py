"""Render: the game model to game XML through the Jinja templates in templates/game/.

Templates are strict (a missing variable is an error) and sandboxed (no access
to Python internals, no files outside the template folders: user macro
templates render through the same environment). Every attribute value is
escaped here, including line breaks, which an XML parser would otherwise fold
into spaces."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from .model import Game

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"

_ATTRIBUTE_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;",
    "\n": "&#10;", "\r": "&#13;", "\t": "&#9;",
})
_NEEDS_ESCAPE = frozenset("&<>\"'\n\r\t")


def escape_attribute(value: str) -> str:
    if _NEEDS_ESCAPE.isdisjoint(value):
        return value
    return value.translate(_ATTRIBUTE_ESCAPES)


def xml_attributes(**attributes: str | None) -> Markup:
    """` name="value"` for every attribute that is present (None means absent)."""
    return Markup("".join(
        f' {name}="{escape_attribute(value)}"' for name, value in attributes.items() if value is not None))


def cdata(text: str) -> Markup:
    """Element text; long texts such as notes stay readable as CDATA where that is safe."""
    if "]]>" in text or "\r" in text:
        return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;"))
    return Markup(f"<![CDATA[{text}]]>")


@lru_cache(maxsize=None)
def environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.globals.update(attrs=xml_attributes, cdata=cdata)
    return env


def render_game(game: Game) -> bytes:
    """The game XML, UTF-8 encoded. Deterministic: the same model gives the same bytes."""
    text = environment().get_template("game/game.xml.j2").render(game=game)
    return text.encode("utf-8")
