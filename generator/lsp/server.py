"""The language server: pygls wiring only. What it says comes from generator.lsp.analysis (the
diagnostics of `validate`), generator.lsp.cursor (where the cursor is) and generator.lsp.knowledge
(keys, macros, options, codes). It never runs a TripleA engine."""
from __future__ import annotations

import asyncio
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from generator import __version__
from generator.core.diagnostics import Diagnostic, printable
from generator.lsp import knowledge
from generator.lsp.analysis import Analysis, analyse, looks_like_spec, macro_dirs, rule_ids
from generator.lsp.cursor import context_at, item_value, rule_item, word_at

DEBOUNCE_SECONDS = 0.05  # a pause in typing this long starts a check (a newer edit drops its result)
_SUGGESTION = re.compile(r"did you mean '([^']+)'\?")
_QUOTED = re.compile(r"'([^']+)'")
_CODE = re.compile(r"\bTG\d{3}\b")


class SpecServer(LanguageServer):
    def __init__(self):
        super().__init__("triplea-gen", __version__)
        # One check at a time, away from the loop: completion and hover answer while a check runs.
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="triplea-gen-check")
        self.pending: dict[str, asyncio.Task] = {}
        self.results: dict[str, Analysis] = {}  # the last check of each document
        self.names: dict[str, Analysis] = {}  # the last check whose names could be read, kept through errors
        self.published: dict[str, set[str]] = {}  # document -> the other files it published to
        self.checked: dict[str, str] = {}  # document -> the text its last check saw


server = SpecServer()


def _document(ls: SpecServer, uri: str):
    return ls.workspace.get_text_document(uri)


def _is_spec(uri: str) -> bool:
    return uri.endswith((".yaml", ".yml"))


# --- diagnostics ----------------------------------------------------------------------------------------------

def schedule_check(ls: SpecServer, uri: str, delay: float, again: bool = True) -> None:
    """A check `delay` seconds from now, replacing one still waiting. `again` False: not when the
    text is what the last check saw (a change undone, an edit typed and deleted)."""
    previous = ls.pending.pop(uri, None)
    if previous is not None:
        previous.cancel()
    ls.pending[uri] = asyncio.get_running_loop().create_task(_check_later(ls, uri, delay, again))


async def _check_later(ls: SpecServer, uri: str, delay: float, again: bool = True) -> None:
    await asyncio.sleep(delay)
    document = _document(ls, uri)
    version, text, path = document.version, document.source, Path(document.path)
    if _is_spec(uri) and not looks_like_spec(text):
        return
    if not again and ls.checked.get(uri) == text:
        return
    loop = asyncio.get_running_loop()
    try:
        if _is_spec(uri):
            result = await loop.run_in_executor(ls.checker, analyse, path, text)
        else:
            result = await loop.run_in_executor(ls.checker, _check_game_xml, path)
    except Exception as err:  # a bug must not end the session: said in the log, the last result kept
        ls.window_log_message(t.LogMessageParams(
            t.MessageType.Error, f"triplea-gen: internal error: {type(err).__name__}: {printable(str(err))} "
                                 "(a bug in triplea-gen; please report it with the spec)"))
        return
    if _document(ls, uri).version != version:
        return  # typed on meanwhile: the next check reports
    previous_note = ls.results[uri].note if uri in ls.results else None
    ls.results[uri] = result
    ls.checked[uri] = text
    if result.names is not None:
        ls.names[uri] = result
    _publish(ls, uri, text, version, result)
    if result.note and result.note != previous_note:  # said once, not after every keystroke
        ls.window_log_message(t.LogMessageParams(t.MessageType.Info, result.note))
    if _is_spec(uri):  # published: the next check's copy of the base game is made while the modder types
        from generator.speclang.basecache import prepare_spare

        loop.run_in_executor(ls.checker, prepare_spare)


def _check_game_xml(path: Path) -> Analysis:
    """A game XML is checked as saved on disk (validate reads the file)."""
    from generator.check.validate import validate_file
    from generator.core.diagnostics import DiagnosticError

    try:
        return Analysis(validate_file(str(path)))
    except DiagnosticError as err:
        return Analysis(err.diagnostics)


def _publish(ls: SpecServer, uri: str, text: str, version, result: Analysis) -> None:
    own = Path(_document(ls, uri).path).resolve()
    by_file: dict[str, list[t.Diagnostic]] = {}
    lines = text.split("\n")
    for diagnostic in result.diagnostics:
        file = Path(diagnostic.position.file).resolve() if diagnostic.position.file else own
        # a place that is no file ("spec.yaml (rendered XML)") is shown on the spec itself
        target = uri if file == own or not file.is_file() else from_fs_path(str(file))
        file_lines = lines if target == uri else None
        by_file.setdefault(target, []).append(to_lsp(diagnostic, file_lines))
    others = set(by_file) - {uri}
    for stale in ls.published.get(uri, set()) - others:
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=stale, diagnostics=[]))
    ls.published[uri] = others
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, version=version,
                                                                    diagnostics=by_file.get(uri, [])))
    for other in sorted(others):
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=other, diagnostics=by_file[other]))


def to_lsp(diagnostic: Diagnostic, lines: list[str] | None) -> t.Diagnostic:
    """A diagnostic as validate prints it (message, then its hint), over the name it is about: the
    last name the message quotes that stands on its line at or after its column, else the word there."""
    line = max(diagnostic.position.line - 1, 0)
    column = max(diagnostic.position.col - 1, 0)
    start, end = column, column + 1
    if lines is not None and line < len(lines):
        text = lines[line]
        found = None
        # the last name quoted is what the message is about ("parameter 'p': no territory 'x'")
        for name in reversed(_QUOTED.findall(diagnostic.message)):
            index = text.find(name, column)
            if index >= 0:
                found = (index, index + len(name))
                break
        if found is None:
            _, start, end = word_at("\n".join(lines), line, column)
            if end <= start:
                start, end = column, max(len(text), column + 1)
        else:
            start, end = found
    message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    suggestion = _SUGGESTION.search(str(diagnostic.hint)) if diagnostic.hint else None
    return t.Diagnostic(
        range=t.Range(t.Position(line, start), t.Position(line, end)),
        message=message,
        severity=t.DiagnosticSeverity.Error if diagnostic.severity == "error" else t.DiagnosticSeverity.Warning,
        code=diagnostic.code,
        source="triplea-gen",
        data={"suggestion": suggestion.group(1)} if suggestion else None,
    )


@server.feature(t.INITIALIZED)
def initialized(ls: SpecServer, params: t.InitializedParams) -> None:
    # the imports, catalog and macros every check needs, loaded while the editor opens its files
    ls.checker.submit(_warm_up)


def _warm_up() -> None:
    import generator.builder.pipeline  # noqa: F401
    import generator.check.validate  # noqa: F401

    knowledge.catalog()
    knowledge.macros()


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SpecServer, params: t.DidOpenTextDocumentParams) -> None:
    schedule_check(ls, params.text_document.uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SpecServer, params: t.DidChangeTextDocumentParams) -> None:
    if _is_spec(params.text_document.uri):  # a game XML is checked when saved
        schedule_check(ls, params.text_document.uri, DEBOUNCE_SECONDS, again=False)


@server.feature(t.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: SpecServer, params: t.DidSaveTextDocumentParams) -> None:
    schedule_check(ls, params.text_document.uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SpecServer, params: t.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.results.pop(uri, None)
    ls.checked.pop(uri, None)
    ls.names.pop(uri, None)
    for other in ls.published.pop(uri, set()) | {uri}:
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=other, diagnostics=[]))


# --- completion -----------------------------------------------------------------------------------------------

def _is_mod(text: str) -> bool:
    return re.search(r"^mod:", text, re.M) is not None


def _macros_for(document):
    return knowledge.macros(tuple(macro_dirs(Path(document.path), document.source)))


@server.feature(t.TEXT_DOCUMENT_COMPLETION,
                t.CompletionOptions(trigger_characters=["[", ",", " ", ":", "-"]))
def completion(ls: SpecServer, params: t.CompletionParams) -> t.CompletionList:
    document = _document(ls, params.text_document.uri)
    text = document.source
    line, column = params.position.line, params.position.character
    context = context_at(text, line, column)
    items = completion_items(ls, document, context)
    start = t.Position(line, column - len(context.prefix))
    edit_range = t.Range(start, params.position)
    for item in items:
        item.text_edit = t.TextEdit(range=edit_range, new_text=item.insert_text or item.label)
    return t.CompletionList(is_incomplete=False, items=items)


def completion_items(ls: SpecServer, document, context) -> list[t.CompletionItem]:
    text = document.source
    macros = _macros_for(document)
    macro = macros.get(context.macro) if context.macro else None
    if context.at_key:
        if context.container is not None and macro is not None and context.container in macro.params:
            # a mapping parameter: {unit: count}, {territory: ...} keys are names of the game
            kind = {"unit_counts": "unit type", "territory_units": "territory"}.get(
                macro.params[context.container].type)
            found = ls.names.get(document.uri)
            if kind and found is not None and found.names is not None:
                return [t.CompletionItem(label=name, kind=t.CompletionItemKind.Value, detail=kind,
                                         insert_text=f"{name}: ") for name in found.names.of_kind(kind)]
            return []
        if (context.path[-1:] == ["with"] or context.container == "with") and macro is not None:
            return [t.CompletionItem(label=name, kind=t.CompletionItemKind.Property, detail=param.type,
                                     documentation=param.doc, insert_text=f"{name}: ")
                    for name, param in macro.params.items()]
        if context.container == "options" or (context.path[-1:] == ["options"] and context.container is None):
            engine = _engine(ls, document.uri)
            return [t.CompletionItem(label=name, kind=t.CompletionItemKind.Property, detail=grammar,
                                     insert_text=f"{name}: ")
                    for name, grammar in knowledge.option_names(_attachment_class(text, context.line), engine)]
        keys = knowledge.rule_keys() if context.path == ["rules"] else knowledge.section_keys(context.path, _is_mod(text))
        return [t.CompletionItem(label=name, kind=t.CompletionItemKind.Property, detail=words or None,
                                 documentation=doc, insert_text=f"{name}: ") for name, doc, words in keys]
    if context.key == "use":
        return [t.CompletionItem(label=name, kind=t.CompletionItemKind.Function,
                                 detail=knowledge.macro_signature(found), documentation=found.description)
                for name, found in sorted(macros.items())]
    if context.key == "rule" and context.path[:1] == ["scenarios"]:
        return [t.CompletionItem(label=rule_id, kind=t.CompletionItemKind.Reference)
                for rule_id in rule_ids(text) if not _in_scenarios(text, rule_id)]
    if context.key == "status":
        from generator.rules.expand import STATUSES
        return [t.CompletionItem(label=status, kind=t.CompletionItemKind.EnumMember) for status in STATUSES]
    kind = knowledge.value_kind(context, macro)
    found = ls.names.get(document.uri)
    names = found.names if found is not None else None
    if kind is None or names is None:
        return []
    if kind == "when":
        return [t.CompletionItem(label=f"{when}:{step}", kind=t.CompletionItemKind.Event)
                for step in names.steps for when in ("before", "after")]
    item_kind = {"territory": t.CompletionItemKind.Module, "player": t.CompletionItemKind.Class,
                 "unit type": t.CompletionItemKind.Struct}.get(kind, t.CompletionItemKind.Value)
    return [t.CompletionItem(label=name, kind=item_kind, detail=kind) for name in names.of_kind(kind)]


def _in_scenarios(text: str, rule_id: str) -> bool:
    """Scenario ids are listed with the rules' by rule_ids; a scenario's own id is not a rule."""
    match = re.search(r"^scenarios:", text, re.M)
    if match is None:
        return False
    index = text.find(f"id: {rule_id}", match.end())
    return index >= 0


def _engine(ls: SpecServer, uri: str) -> str:
    result = ls.results.get(uri)
    return result.engine if result is not None else "current"


def _attachment_class(text: str, line: int) -> str | None:
    """The short class of the attachment whose options are typed: its `class:` (or `javaClass:`),
    else the one class its name fits (unitAttachment, rulesAttachment, ...); None when unknown."""
    lines = text.split("\n")
    named = item_value(lines, line, "class") or item_value(lines, line, "javaClass")
    if named:
        return named.rpartition(".")[2]
    name = item_value(lines, line, "name")
    if name:
        fitting = [cls.name for cls in knowledge.catalog().classes.values() if not cls.any_name and cls.name_fits(name)]
        if len(fitting) == 1:
            return fitting[0]
    return None


# --- hover ----------------------------------------------------------------------------------------------------

@server.feature(t.TEXT_DOCUMENT_HOVER)
def hover(ls: SpecServer, params: t.HoverParams) -> t.Hover | None:
    document = _document(ls, params.text_document.uri)
    line, column = params.position.line, params.position.character
    texts = hover_texts(ls, document, line, column)
    if not texts:
        return None
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value="\n\n---\n\n".join(texts)))


def hover_texts(ls: SpecServer, document, line: int, column: int) -> list[str]:
    text = document.source
    word, _, _ = word_at(text, line, column)
    lines = text.split("\n")
    current = lines[line] if line < len(lines) else ""
    context = context_at(text, line, column)
    macros = _macros_for(document)
    macro = macros.get(context.macro) if context.macro else None
    found: list[str] = []
    is_key = re.match(rf"^\s*(?:-\s+)?{re.escape(word)}\s*:", current) is not None or re.search(
        rf"[{{,]\s*{re.escape(word)}\s*:", current) is not None
    if word in macros and re.search(rf"\buse:\s*{re.escape(word)}\b", current):
        found.append(knowledge.macro_hover(macros[word]))
    elif is_key and macro is not None and "with" in context.path and (param := knowledge.param_hover(macro, word)):
        found.append(param)
    elif is_key and "options" in context.path + [context.key] and (
            option := knowledge.option_hover(word, _attachment_class(text, line))):
        found.append(option)
    elif is_key and (doc := knowledge.key_hover(word, context.path, _is_mod(text))):
        found.append(doc)
    elif is_key and (option := knowledge.option_hover(word)):
        found.append(option)
    for code in _CODE.findall(word):
        found.append(knowledge.code_hover(code) or code)
    if not found and word:
        found += _name_hover(ls.names.get(document.uri), word)
    result = ls.results.get(document.uri)
    if result is not None:
        for diagnostic in result.diagnostics:
            if diagnostic.position.line - 1 == line and Path(diagnostic.position.file or document.path).resolve() \
                    == Path(document.path).resolve():
                meaning = knowledge.code_hover(diagnostic.code)
                if meaning and meaning not in found:
                    found.append(meaning)
    return found


def _name_hover(result: Analysis | None, word: str) -> list[str]:
    """A name of the game: what it is, and where the base game declares it."""
    if result is None or result.names is None:
        return []
    kinds = [kind for kind in ("territory", "player", "unit type", "resource", "step", "relationship type",
                               "attachment") if word in result.names.of_kind(kind)]
    if not kinds:
        return []
    text = f"**{word}**: {' and '.join(kinds)} of the game"
    if result.base_path is not None:
        line = name_in_base(Path(result.base_path), word)
        if line is not None:
            text += f"; the base game {Path(result.base_path).name} declares it on line {line + 1}"
    return [text]


# --- go to definition -----------------------------------------------------------------------------------------

@server.feature(t.TEXT_DOCUMENT_DEFINITION)
def definition(ls: SpecServer, params: t.DefinitionParams) -> t.Location | None:
    document = _document(ls, params.text_document.uri)
    text = document.source
    line, column = params.position.line, params.position.character
    word, _, _ = word_at(text, line, column)
    if not word:
        return None
    macros = _macros_for(document)
    if word in macros:
        return t.Location(uri=from_fs_path(str(macros[word].path)), range=_line_range(0))
    ids = rule_ids(text)
    if word in ids and ids[word] != line:
        return t.Location(uri=document.uri, range=_line_range(ids[word]))
    result = ls.names.get(document.uri)
    if result is not None and result.base_path is not None:
        place = name_in_base(Path(result.base_path), word)
        if place is not None:
            return t.Location(uri=from_fs_path(str(result.base_path)), range=_line_range(place))
    return None


def name_in_base(base: Path, name: str) -> int | None:
    """The 0-based line where the base game declares a name (its first name="..." attribute)."""
    from xml.sax.saxutils import quoteattr

    try:
        text = base.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for attribute in (f"name={quoteattr(name)}", f'name="{name}"'):
        index = text.find(attribute)
        if index >= 0:
            return text.count("\n", 0, index)
    return None


def _line_range(line: int) -> t.Range:
    return t.Range(t.Position(line, 0), t.Position(line, 0))


# --- quick fixes and symbols ----------------------------------------------------------------------------------

@server.feature(t.TEXT_DOCUMENT_CODE_ACTION,
                t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]))
def code_action(ls: SpecServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    actions = []
    for diagnostic in params.context.diagnostics:
        data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        suggestion = data.get("suggestion")
        if not suggestion:
            continue
        edit = t.WorkspaceEdit(changes={params.text_document.uri: [t.TextEdit(range=diagnostic.range,
                                                                              new_text=suggestion)]})
        actions.append(t.CodeAction(title=f"Change to '{suggestion}'", kind=t.CodeActionKind.QuickFix,
                                    diagnostics=[diagnostic], edit=edit, is_preferred=True))
    return actions


@server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: SpecServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    text = _document(ls, params.text_document.uri).source
    lines = text.split("\n")
    symbols = []
    for name, line in rule_ids(text).items():
        span = rule_item(lines, line) or (line, line)
        end = t.Position(span[1], len(lines[span[1]]))
        section = _top_key_above(lines, line)
        symbols.append(t.DocumentSymbol(
            name=name, detail=section, kind=t.SymbolKind.Event if section == "scenarios" else t.SymbolKind.Function,
            range=t.Range(t.Position(span[0], 0), end), selection_range=_line_range(line)))
    return symbols


def _top_key_above(lines: list[str], line: int) -> str:
    for number in range(line, -1, -1):
        match = re.match(r"^([\w-]+):", lines[number])
        if match:
            return match.group(1)
    return ""


# --- scenarios: `triplea-gen test` of one, when asked -----------------------------------------------------------

TEST_COMMAND = "triplea-gen.testScenario"


@server.feature(t.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: SpecServer, params: t.CodeLensParams) -> list[t.CodeLens]:
    """A "test this scenario" lens over each scenario; nothing runs until it is clicked."""
    document = _document(ls, params.text_document.uri)
    lines = document.source.split("\n")
    lenses = []
    for name, line in rule_ids(document.source).items():
        if _top_key_above(lines, line) == "scenarios":
            lenses.append(t.CodeLens(range=_line_range(line), command=t.Command(
                title=f"test {name}", command=TEST_COMMAND, arguments=[document.path, name])))
    return lenses


@server.command(TEST_COMMAND)
async def test_scenario(ls: SpecServer, *args) -> str:
    """`triplea-gen test SPEC --scenario ID` in its own process (it plays the engine); its last
    line is shown, the whole output goes to the log."""
    arguments = args[0] if len(args) == 1 and isinstance(args[0], list) else list(args)
    spec, scenario = str(arguments[0]), str(arguments[1])
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "generator", "test", spec, "--scenario", scenario,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output = (await process.communicate())[0].decode("utf-8", "replace").strip()
    ls.window_log_message(t.LogMessageParams(t.MessageType.Info, output))
    last = output.splitlines()[-1] if output else f"exit status {process.returncode}"
    ls.window_show_message(t.ShowMessageParams(
        t.MessageType.Info if process.returncode == 0 else t.MessageType.Error, f"{scenario}: {last}"))
    return last


def serve() -> int:
    from generator.speclang.basecache import keep_in_memory

    keep_in_memory()  # the base game is read once and kept warm while the server runs
    server.start_io()
    return 0
