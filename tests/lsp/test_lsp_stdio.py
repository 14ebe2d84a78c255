"""The done-when test of the language server (issue #30): `triplea-gen lsp` started as its own
process and driven over stdio by pygls's LanguageClient, as an editor drives it."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import GLOBAL_MAP_DIR, REPO

pytest.importorskip("pygls")
from lsprotocol import types as t  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

MOD = """\
mod:
  name: LSP Test
  version: "1.0"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
  engine: "1.9"

rules:
  - id: T-R01
    text: The Urals produce more.
    use: territory_value
    with: {territories: [Uralz], production: 3}
"""
WAIT = 60  # seconds: the first check imports the base game (cached on disk after the first run)


class Client(LanguageClient):
    def __init__(self):
        super().__init__("lsp-test", "1")
        self.diagnostics: dict[str, asyncio.Queue] = {}

        @self.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: t.PublishDiagnosticsParams):
            self.diagnostics.setdefault(params.uri, asyncio.Queue()).put_nowait(params)

        @self.feature(t.WINDOW_LOG_MESSAGE)
        def _logged(params):
            pass

    async def next_diagnostics(self, uri: str) -> t.PublishDiagnosticsParams:
        queue = self.diagnostics.setdefault(uri, asyncio.Queue())
        return await asyncio.wait_for(queue.get(), WAIT)


async def _started(tmp_path: Path) -> Client:
    client = Client()
    env = {**os.environ, "TRIPLEA_MAPS": str(GLOBAL_MAP_DIR.parent), "PYTHONPATH": str(REPO),
           "TRIPLEA_GEN_NO_SERVER": "1"}
    await client.start_io(sys.executable, "-m", "generator", "lsp", cwd=str(tmp_path), env=env)
    await client.initialize_async(t.InitializeParams(
        capabilities=t.ClientCapabilities(), root_uri=from_fs_path(str(tmp_path))))
    client.initialized(t.InitializedParams())
    return client


async def _stopped(client: Client) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def _line_of(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n")):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(needle)


def test_a_g40_mod_is_checked_completed_and_explained_over_stdio(shared_dir, tmp_path):
    spec = tmp_path / "mod.yaml"
    spec.write_text(MOD, encoding="utf-8")
    uri = from_fs_path(str(spec))

    async def session():
        client = await _started(tmp_path)
        try:
            client.text_document_did_open(t.DidOpenTextDocumentParams(
                t.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=MOD)))
            published = await client.next_diagnostics(uri)
            # the misspelt territory: located on the name, with validate's code, message and hint
            line, column = _line_of(MOD, "Uralz")
            [found] = [d for d in published.diagnostics if d.code == "TG061"]
            assert found.severity == t.DiagnosticSeverity.Error
            assert (found.range.start.line, found.range.start.character) == (line, column)
            assert found.range.end.character == column + len("Uralz")
            assert found.message == ("parameter 'territories': the game has no territory 'Uralz'\n"
                                     "hint: did you mean 'Urals'?")

            # the quick fix the hint offers
            actions = await client.text_document_code_action_async(t.CodeActionParams(
                text_document=t.TextDocumentIdentifier(uri), range=found.range,
                context=t.CodeActionContext(diagnostics=[found])))
            assert [a.edit.changes[uri][0].new_text for a in actions] == ["Urals"]

            # fixed by a change notification: the diagnostic is cleared
            fixed = MOD.replace("Uralz", "Urals")
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=fixed)]))
            published = await client.next_diagnostics(uri)
            assert published.version == 2
            assert [d.code for d in published.diagnostics if d.severity == t.DiagnosticSeverity.Error] == []
            assert "TG061" not in [d.code for d in published.diagnostics]

            # completion of the base game's territory names inside a territory list
            typing = fixed.replace("[Urals]", "[Urals, Nov]")
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=3),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=typing)]))
            line, column = _line_of(typing, "Nov]")
            listed = await client.text_document_completion_async(t.CompletionParams(
                text_document=t.TextDocumentIdentifier(uri), position=t.Position(line, column + 3)))
            labels = {item.label for item in listed.items}
            assert {"Novosibirsk", "Urals", "United Kingdom", "Western Germany"} <= labels
            [item] = [i for i in listed.items if i.label == "Novosibirsk"]
            assert item.text_edit.range.start.character == column  # replaces what was typed

            # hover: the macro's header, and an option from the catalog
            line, column = _line_of(typing, "territory_value")
            shown = await client.text_document_hover_async(t.HoverParams(
                t.TextDocumentIdentifier(uri), t.Position(line, column + 3)))
            assert "**macro `territory_value`**" in shown.contents.value
            assert "`territories` (territories, required)" in shown.contents.value
            line, column = _line_of(typing, "Urals, Nov")
            shown = await client.text_document_hover_async(t.HoverParams(
                t.TextDocumentIdentifier(uri), t.Position(line, column + 2)))
            assert shown.contents.value.startswith("**Urals**: territory of the game; the base game "
                                                   "ww2global40_2nd_edition.xml declares it on line ")
            found = await client.text_document_definition_async(t.DefinitionParams(
                t.TextDocumentIdentifier(uri), t.Position(line, column + 2)))
            assert found.uri.endswith("/world_war_ii_global/map/games/ww2global40_2nd_edition.xml")
            base_lines = (GLOBAL_MAP_DIR / "map" / "games" / "ww2global40_2nd_edition.xml").read_text().split("\n")
            assert 'name="Urals"' in base_lines[found.range.start.line]
            with_option = typing + ("change:\n  attachments:\n    - {name: unitAttachment, attachTo: infantry,"
                                    " options: {attack: 2}}\n")
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=4),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=with_option)]))
            line, column = _line_of(with_option, "attack: 2")
            shown = await client.text_document_hover_async(t.HoverParams(
                t.TextDocumentIdentifier(uri), t.Position(line, column + 2)))
            assert "**option `attack`** of UnitAttachment" in shown.contents.value
            assert "value: `int`" in shown.contents.value
        finally:
            await _stopped(client)

    asyncio.run(session())


def test_completion_definition_and_symbols_of_a_full_game_over_stdio(tmp_path):
    """Without ../shared: the hex example (a full game with rules and scenarios)."""
    text = (REPO / "rules_yaml" / "hex_skirmish.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "hex_skirmish.yaml"
    spec.write_text(text, encoding="utf-8")
    uri = from_fs_path(str(spec))

    async def session():
        client = await _started(tmp_path)
        try:
            client.text_document_did_open(t.DidOpenTextDocumentParams(
                t.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
            published = await client.next_diagnostics(uri)
            assert [d for d in published.diagnostics if d.severity == t.DiagnosticSeverity.Error] == []

            async def complete(line: int, column: int) -> dict:
                listed = await client.text_document_completion_async(t.CompletionParams(
                    text_document=t.TextDocumentIdentifier(uri), position=t.Position(line, column)))
                return {item.label: item for item in listed.items}

            line, column = _line_of(text, "use: victory")
            macros = await complete(line, column + len("use: "))
            assert macros["victory"].detail.startswith("victory(winners: players")
            assert "territory_value" in macros
            line, column = _line_of(text, "[Reds], capitals")
            assert {"Reds", "Blues", "Greens"} <= set(await complete(line, column + 1))
            line, column = _line_of(text, "rule: HS-VICTORY-LEAGUE")
            assert set(await complete(line, column + len("rule: "))) == {"HS-VICTORY-EMPIRE", "HS-VICTORY-LEAGUE"}
            line, column = _line_of(text, "with: {winners: [Reds]")
            assert {"winners", "capitals", "allies"} <= set(await complete(line, column + len("with: {")))

            # go to definition: a macro's template, a rule id from its scenario
            line, column = _line_of(text, "use: victory")
            found = await client.text_document_definition_async(t.DefinitionParams(
                t.TextDocumentIdentifier(uri), t.Position(line, column + 6)))
            assert found.uri.endswith("/templates/rules/victory.xml.j2")
            line, column = _line_of(text, "rule: HS-VICTORY-LEAGUE")
            found = await client.text_document_definition_async(t.DefinitionParams(
                t.TextDocumentIdentifier(uri), t.Position(line, column + 8)))
            assert (found.uri, found.range.start.line) == (uri, _line_of(text, "- id: HS-VICTORY-LEAGUE")[0])

            symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
                t.TextDocumentIdentifier(uri)))
            assert [(s.name, s.detail) for s in symbols][:3] == [
                ("HS-VICTORY-EMPIRE", "rules"), ("HS-VICTORY-LEAGUE", "rules"),
                ("league-wins-holding-redhold", "scenarios")]
            lenses = await client.text_document_code_lens_async(t.CodeLensParams(t.TextDocumentIdentifier(uri)))
            assert [(lens.command.title, lens.command.command, lens.range.start.line) for lens in lenses][:2] == [
                ("test league-wins-holding-redhold", "triplea-gen.testScenario",
                 _line_of(text, "- id: league-wins-holding-redhold")[0]),
                ("test empire-wins-holding-both-league-capitals", "triplea-gen.testScenario",
                 _line_of(text, "- id: empire-wins-holding-both-league-capitals")[0])]
            assert list(lenses[0].command.arguments) == [str(spec), "league-wins-holding-redhold"]
            # the lens's command runs `triplea-gen test` (here of a scenario the spec lacks: no engine starts)
            said = await client.workspace_execute_command_async(t.ExecuteCommandParams(
                command="triplea-gen.testScenario", arguments=[str(spec), "no-such-scenario"]))
            assert said == "  hint: its scenarios: league-wins-holding-redhold, " \
                           "empire-wins-holding-both-league-capitals, one-league-capital-is-not-enough"
        finally:
            await _stopped(client)

    asyncio.run(session())
