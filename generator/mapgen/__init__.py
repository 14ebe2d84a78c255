"""Map generation: from the geometry in a spec's `map:` section (hex or square
grids, named sites, hand-drawn polygons) to the game's territories and
connections and a complete TripleA map folder (point files, map.properties,
tiles, mini map, previews, unit images).

Modules: grids (the cell lattice), gridspec and freeshapes (reading layouts),
values (checked scalars, TG5xx codes), reader (the spec reader's hook),
topology (outlines and connections), placement (centres, unit spots, name
spots), pointfiles (the map's text files), art (pictures), folder (the whole
map folder), cli (`preview`), client (the real TripleA client, for tests).
Shapely and Pillow load only when a spec draws a map.
"""
