"""Engine class names for macro templates, asked from the catalog (generator/catalog)
rather than written out in each template: `javaClass="{{ java_class('RulesAttachment') }}"`."""
from __future__ import annotations

from generator.catalog import load_catalog
from generator.core.diagnostics import closest


def java_class(name: str) -> str:
    """The javaClass of the attachment class `name` (RulesAttachment ->
    games.strategy.triplea.attachments.RulesAttachment); LookupError for a class the engines lack."""
    _known(name, "java_class")
    return f"{load_catalog().attachment_package}.{name}"


def attachment_type(name: str) -> str:
    """What an attachment of the class `name` is attached to, as its type= says (RulesAttachment ->
    player, TerritoryEffectAttachment -> territoryEffect)."""
    return _known(name, "attachment_type").type


def _known(name: str, asked: str):
    catalog = load_catalog()
    if name not in catalog.classes:
        suggestion = closest(name, catalog.classes)
        raise LookupError(f"{asked}: the engines have no attachment class '{name}'"
                          + (f" ({suggestion})" if suggestion else ""))
    return catalog.classes[name]
