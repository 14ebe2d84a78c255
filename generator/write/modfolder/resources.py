"""Icons for the resources a game adds: resources/<name>.png for every resource the current
client shows, resources/<name>_large.png for one players buy, where neither the map folder
(the files being written, the output folder, a mod's base map) nor the engine's own assets
have one (generator/catalog/client.yaml: resource_icon, resource_icon_large)."""
from __future__ import annotations

from typing import Callable

from generator.catalog.client import client_entry
from generator.check.mapfolder import resource_needs
from generator.core.writer import safe_name

# The engine whose client draws placeholders; its assets' list is the one every install has.
_ENGINE = "current"


def resource_icon_files(root, present: Callable[[str], bool]) -> dict[str, bytes]:
    """The icons to add, by path inside the content folder; present(relpath) tells whether the
    map folder has the file already (it is never replaced)."""
    shown, bought = resource_needs(root)
    wanted = []
    for entry_id, names in (("resource_icon", shown), ("resource_icon_large", bought)):
        entry = client_entry(entry_id)
        bundled = entry.rule(_ENGINE).bundled
        for name in names:
            # A name that is not a plain file name cannot be looked up as a file.
            if safe_name(name, "") != name:
                continue
            relpath = entry.file(resource=name)
            if relpath not in bundled and not present(relpath):
                wanted.append((relpath, name, entry_id == "resource_icon_large"))
    if not wanted:
        return {}
    from generator.mapgen.resourceicons import LARGE, SMALL, resource_icon  # Pillow: only when drawing

    return {relpath: resource_icon(name, LARGE if large else SMALL) for relpath, name, large in wanted}
