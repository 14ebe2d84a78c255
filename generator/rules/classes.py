"""Engine class names for macro templates, asked from the catalog (generator/catalog)
rather than written out in each template: `javaClass="{{ java_class('RulesAttachment') }}"`."""
from __future__ import annotations

from generator.catalog import load_catalog
from generator.core.diagnostics import closest


def java_class(name: str) -> str:
    """The javaClass of the attachment class `name` (RulesAttachment ->
    games.strategy.triplea.attachments.RulesAttachment); LookupError for a class the engines lack."""
    catalog = load_catalog()
    if name not in catalog.classes:
        suggestion = closest(name, catalog.classes)
        raise LookupError(f"java_class: the engines have no attachment class '{name}'"
                          + (f" ({suggestion})" if suggestion else ""))
    return f"{catalog.attachment_package}.{name}"
