"""Render: the game model to game XML through the Jinja templates in templates/game/.

Templates are strict (a missing variable is an error). Every template a spec can
bring (its own macros) and everything rendered from spec text renders sandboxed
(no access to Python internals, no files outside the template folders); the
game templates, which only triplea-gen ships and which only read the model's
fields, render without the sandbox's per-call checks, a fifth faster on a large
game. Every attribute value is escaped here, including line breaks, which an
XML parser would otherwise fold into spaces.

Positions: each game template marks the start tag of an element it renders from a model entity
(`{{ entity | origin }}`, and every option through `option_attributes`); render_game_with_origins
turns the marks into "line of the written XML -> the YAML position the entity came from" and
takes them out, so diagnostics on the XML point at the YAML line that wrote it."""
from __future__ import annotations

import re
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

import jinja2
from markupsafe import Markup

from generator.model import game as model
from generator.core.datacache import cache_folder
from generator.core.diagnostics import Position
from generator.model.fields import attributes_of, xml_items
from generator.model.game import Game
from generator.render.sandbox import CODE_STAMP, BoundedSandbox



def _shipped_templates() -> Path:
    """The templates/ folder: inside the package when installed from a wheel (setup.py maps the
    checkout's top-level templates/ to generator/templates), beside it in a checkout."""
    # The package's own folder, as importlib.resources would name it for an unpacked install (a
    # wheel is installed unpacked); asking importlib.resources loads zipfile, a cost at every start.
    here = Path(__file__).resolve().parents[1]
    packaged = here / "templates"
    if packaged.is_dir():
        return packaged
    return here.parent / "templates"


TEMPLATES_DIR = _shipped_templates()

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


def model_attributes(entity: object, legacy: bool = False) -> Markup:
    """The XML attributes an entity's model class declares (generator.model.fields), in their order;
    with legacy, in old maps' spelling where there is one (attatchTo)."""
    return Markup("".join(f' {name}="{escape_attribute(value)}"' for name, value in xml_items(entity, legacy)
                          if value is not None))


# The positions of the entities marked so far in the current render_game_with_origins (None: not recording).
_ORIGINS: ContextVar[list[Position] | None] = ContextVar("origins", default=None)
_MARK = re.compile("\x00([0-9]+)\x00")  # NUL is never valid XML, so no game text can hold a real mark


def origin(entity) -> Markup:
    """A mark of the entity's YAML position in its element's start tag (nothing when not recording)."""
    return Markup(_mark(getattr(entity, "pos", None)))


def _mark(pos: Position | None) -> str:
    """The mark of pos for render_game_with_origins, recorded; "" when not recording or no position."""
    recorded = _ORIGINS.get()
    if recorded is None or pos is None:
        return ""
    recorded.append(pos)
    return f"\x00{len(recorded) - 1}\x00"


# (XML name, field) of an option, looked up once: options are the most numerous element by far
_OPTION_ATTRIBUTES = tuple((a.xml, a.field) for a in attributes_of(model.Option))


def option_attributes(option: model.Option) -> Markup:
    """xml_attributes(name=, value=, count=) of an attachment option, as a filter: a big game has
    thousands of options, and Jinja calls a filter directly but a function through its call
    machinery (a sixth of the time of rendering Global 1940)."""
    text = "".join(f' {name}="{escape_attribute(value)}"' for name, field in _OPTION_ATTRIBUTES
                   if (value := getattr(option, field)) is not None)
    return Markup(text + _mark(option.pos))


def cdata(text: str) -> Markup:
    """Element text; long texts such as notes stay readable as CDATA where that is safe."""
    if "]]>" in text or "\r" in text:
        return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;"))
    return Markup(f"<![CDATA[{text}]]>")


def _bytecode_cache(kind: str) -> jinja2.BytecodeCache | None:
    """Compiled templates are kept between runs (keyed by the template's checksum), so a rebuild
    does not compile them again; sandboxed code differs (and changes with the sandbox's code, whose
    stamp is in its kind), so each kind has its own files."""
    folder = cache_folder("jinja")
    return _SafeBytecodeCache(str(folder), f"{kind}-%s.cache") if folder is not None else None


class _SafeBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, storing through the one safe writer like every file triplea-gen writes."""

    def dump_bytecode(self, bucket) -> None:
        import io

        from generator.core.datacache import write_quietly

        buffer = io.BytesIO()
        bucket.write_bytecode(buffer)
        write_quietly(Path(self._get_cache_filename(bucket)), buffer.getvalue())


class _Options(TypedDict):
    """The settings both template environments share (typed: they are passed as keywords)."""

    undefined: type[jinja2.Undefined]
    autoescape: bool
    trim_blocks: bool
    lstrip_blocks: bool
    keep_trailing_newline: bool
    auto_reload: bool


_OPTIONS = _Options(
    undefined=jinja2.StrictUndefined,
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    auto_reload=True,  # watch and the build server must see edited macro templates
)


@lru_cache(maxsize=None)
def environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The sandboxed environment: macros (shipped and a spec's own), loops, notes, scaffolds."""
    env = BoundedSandbox(bytecode_cache=_bytecode_cache(f"bounded-{CODE_STAMP}"),
                         loader=jinja2.FileSystemLoader(str(templates_dir)), **_OPTIONS)
    env.globals.update(attrs=xml_attributes, cdata=cdata)
    return env


@lru_cache(maxsize=None)
def text_environment() -> jinja2.Environment:
    """Sandboxed and without escaping: `{{ }}` expressions in spec values, whose results are plain
    text in the model (escaped later, when the game is rendered)."""
    return BoundedSandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True)


@lru_cache(maxsize=None)
def _game_environment() -> jinja2.Environment:
    """For the shipped templates/game/ only (render_game); nothing a spec brings is loaded here."""
    env = jinja2.Environment(bytecode_cache=_bytecode_cache("plain"), loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
                             **_OPTIONS)
    env.globals.update(attrs=xml_attributes, model_attrs=model_attributes, cdata=cdata)
    env.filters["option_attributes"] = option_attributes
    env.filters["origin"] = origin
    return env


def render_game(game: Game) -> bytes:
    """The game XML, UTF-8 encoded. Deterministic: the same model gives the same bytes."""
    text = _game_environment().get_template("game/game.xml.j2").render(game=game)
    return text.encode("utf-8")


def render_game_with_origins(game: Game, owner: object = None,
                             unchanged: frozenset[str] = frozenset()) -> tuple[bytes, dict[int, Position]]:
    """The game XML (the same bytes as render_game) and, for each line that starts an element
    rendered from a model entity with a position, that position. `owner`, `unchanged`: a warm
    builder's word on which sections no edit fed (generator.render.sections.render_sections)."""
    from generator.render import sections

    if sections.is_warm():  # a warm process: unchanged sections from memory
        rendered = sections.render_sections(game, _game_environment(), _ORIGINS, owner, unchanged)
        if rendered is None:  # a value holds NUL, which no XML can carry: the parser will say so
            return render_game(game), {}
        return rendered[0].encode("utf-8"), rendered[1]
    recorded: list[Position] = []
    token = _ORIGINS.set(recorded)
    try:
        text = _game_environment().get_template("game/game.xml.j2").render(game=game)
    finally:
        _ORIGINS.reset(token)
    if text.count("\x00") != 2 * len(recorded):
        # A value holds NUL, which no XML can carry: the parser will say so, on the unmarked text.
        return render_game(game), {}
    lines: dict[int, Position] = {}
    line, last = 1, 0
    for mark in _MARK.finditer(text):
        line += text.count("\n", last, mark.start())
        last = mark.start()
        lines[line] = recorded[int(mark.group(1))]
    return _MARK.sub("", text).encode("utf-8"), lines
