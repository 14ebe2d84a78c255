"""`triplea-gen lsp`: the language server over stdio (generator.lsp)."""
from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lsp", help="a language server for specs, over standard input and output",
        description="Serve the Language Server Protocol over stdio for YAML specs (and game XMLs): the "
                    "diagnostics of validate as you type, completion, hover, go to definition, quick fixes "
                    "and rule symbols. Needs the lsp extra: pip install 'triplea-gen[lsp]'.")
    parser.set_defaults(run=run_lsp)


def run_lsp(args) -> int:
    from generator.core.diagnostics import Diagnostic, DiagnosticError, Position

    try:
        from generator.lsp.server import serve
    except ImportError as err:
        package = (err.name or "").split(".")[0]  # name is None when the import named no module
        if package in ("pygls", "lsprotocol", "cattrs"):
            raise DiagnosticError([Diagnostic(
                "TG620", f"the language server needs {package}, which is not installed",
                Position("triplea-gen lsp"), "pip install 'triplea-gen[lsp]'")]) from None
        raise
    return serve()
