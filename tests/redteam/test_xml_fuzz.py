"""Red team fuzz, randomised on every run (the seed, tests/fuzzseed.py, is printed in any failure
so that a case can be replayed with TRIPLEA_GEN_FUZZ_SEED): DOCTYPE, entity, encoding, nesting and attribute shapes mixed into real
games, through `import`, `validate` and the engine pre-check. Nothing may exit 3, every
refusal is a TG diagnostic (located for the reader's own codes), no secret leaks, and a file
the pre-check passes makes no parser ask for anything but a bare DTD name."""
from __future__ import annotations

import contextlib
import io
import random
import re
import time
from pathlib import Path

from lxml import etree

from conftest import CORPUS_DIR
from fuzzseed import FUZZ_SEED, SEED_VARIABLE
from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError
from generator.engine.harness import vet_for_engine
from redteam.xml_shapes import GAME

CASES = 300
TIME_BUDGET = 50.0  # seconds; the cases stop early rather than slow the suite down
SMALL_CORPUS_BYTES = 40_000
# The reader's own refusals always say where: line and column.
READER_CODES = ("TG010", "TG011", "TG012", "TG017", "TG018", "TG019")
_DIAGNOSTIC = re.compile(r"^(?P<where>.+?): (?:error|warning)\[(?P<code>TG\d{3})\]: ", re.MULTILINE)
_LOCATED = re.compile(r":\d+:\d+$")
_BARE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def sources() -> list[str]:
    """Real games small enough to import hundreds of times: the engine fixture and, when
    ../shared is there, the small corpus games."""
    files = [GAME] + [path for path in sorted(CORPUS_DIR.glob("*.xml")) if path.stat().st_size < SMALL_CORPUS_BYTES]
    return [path.read_text(encoding="utf-8") for path in files]


class Mutator:
    def __init__(self, rng: random.Random, secret: Path):
        self.rng = rng
        url = "http://127.0.0.1:9"  # discard port: nothing answers, and no parser may even ask
        self.doctypes = [
            '<!DOCTYPE game SYSTEM "game.dtd">', '<!DOCTYPE game SYSTEM "game.dtd"[]>', "<!DOCTYPE game>",
            '<!DOCTYPE game SYSTEM "other.dtd">', f'<!DOCTYPE game SYSTEM "{url}/game.dtd">',
            f'<!DOCTYPE game SYSTEM "file://{secret}">', f'<!DOCTYPE game SYSTEM "{secret}">',
            '<!DOCTYPE game SYSTEM "/dev/stdin">', '<!DOCTYPE game SYSTEM "../game.dtd">',
            f'<!DOCTYPE game PUBLIC "-//x//EN" "{url}/p.dtd">', '<!DOCTYPE game PUBLIC "-//x//EN" "game.dtd">',
            f'<!DOCTYPE game [<!ENTITY leak SYSTEM "file://{secret}">]>',
            f'<!DOCTYPE game SYSTEM "game.dtd" [<!ENTITY % p SYSTEM "{url}/p"> %p;]>',
            '<!DOCTYPE game [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
            '<!doctype game system "game.dtd">', '<!DOCTYPE game SYSTEM"game.dtd">',
            '<!DOCTYPE\u00a0game SYSTEM "game.dtd">', '<!DOCTYPE game SYSTEM "game.dtd" [ ]>', "",
        ]
        self.pieces = ["&leak;", "&a;", "&b;", "&amp;", "&#x41;", "&#0;", "&", "<", ">", "]]>", "<![CDATA[x]]>",
                       "<!--", "-->", "<!ENTITY x 'y'>", f'<!DOCTYPE game SYSTEM "file://{secret}">', "<?pi x?>",
                       '"', "'", "\x00", "\ufeff", "\u2028", "é", "\n", "<info/>", "</game>", "<game>"]
        self.encodings = ["utf-8"] * 4 + ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "latin-1", "utf-32",
                                          "mismatch"]

    def mutate(self, text: str) -> bytes:
        for _ in range(self.rng.randint(1, 3)):
            text = self.rng.choice([self.doctype, self.piece, self.nesting, self.attributes, self.cut])(text)
        return self.encode(text)

    def doctype(self, text: str) -> str:
        start = text.find("<!DOCTYPE")
        end = text.find(">", start) + 1 if start >= 0 else 0
        return text[:start] + self.rng.choice(self.doctypes) + text[end:] if start >= 0 else \
            self.rng.choice(self.doctypes) + "\n" + text

    def piece(self, text: str) -> str:
        at = self.rng.randrange(len(text) + 1)
        return text[:at] + self.rng.choice(self.pieces) + text[at:]

    def nesting(self, text: str) -> str:
        depth = self.rng.choice([5, 30, 33, 100, 300, 5000])
        at = text.find(">", self.rng.randrange(len(text))) + 1 or len(text)
        return text[:at] + "<a>" * depth + "</a>" * depth + text[at:]

    def attributes(self, text: str) -> str:
        at = text.find("<info ")
        count = self.rng.choice([1, 9, 500, 3000])
        flood = " ".join(f'x{n}="{n}"' for n in range(count))
        return text[:at + 6] + flood + " " + text[at + 6:] if at >= 0 else text

    def cut(self, text: str) -> str:
        at = self.rng.randrange(len(text) + 1)
        return text[:at] + text[at + self.rng.randint(1, 200):]

    def encode(self, text: str) -> bytes:
        encoding = self.rng.choice(self.encodings)
        if encoding == "mismatch":
            return text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-8", "surrogatepass")
        declared = {"utf-8-sig": "UTF-8", "latin-1": "ISO-8859-1"}.get(encoding, encoding.upper()[:6])
        text = text.replace('encoding="UTF-8"', f'encoding="{declared}"')
        return text.encode(encoding, "replace")


def run(*arguments: str) -> tuple[int, str]:
    """Exit status and everything printed (validate reports on stdout, the others on stderr)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(list(arguments))
    return status, out.getvalue()


def check_refusals(status: int, err: str, case: str) -> None:
    assert status in (0, 1, 2), f"{case}: exit {status}: {err[-500:]}"
    assert "Traceback" not in err and "internal error" not in err, f"{case}: {err[-500:]}"
    found = list(_DIAGNOSTIC.finditer(err))
    if status != 0:
        assert found, f"{case}: exit {status} without a TG diagnostic: {err[:500]}"
    for match in found:
        if match.group("code") in READER_CODES:
            assert _LOCATED.search(match.group("where")), f"{case}: not located: {match.group(0)}"


def asked_for(data: bytes) -> list[str]:
    """What lxml, reading DTDs and entities but answering every request with nothing, asks for."""
    asked: list[str] = []

    class Recorder(etree.Resolver):
        def resolve(self, url, public_id, context):
            asked.append(str(url))
            return self.resolve_string("", context)

    parser = etree.XMLParser(load_dtd=True, resolve_entities=True, no_network=True, huge_tree=False)
    parser.resolvers.add(Recorder())
    with contextlib.suppress(etree.XMLSyntaxError, ValueError):
        etree.fromstring(data, parser)
    return asked


def test_hostile_xml_mutations(tmp_path: Path):
    seed = FUZZ_SEED  # new each run; TRIPLEA_GEN_FUZZ_SEED replays one
    rng = random.Random(seed)
    secret_text = f"SECRET-{seed:x}"
    secret = tmp_path / "secret.txt"
    secret.write_text(secret_text)
    mutator, games = Mutator(rng, secret), sources()
    started, done, refused = time.perf_counter(), 0, 0
    for number in range(CASES):
        if time.perf_counter() - started > TIME_BUDGET:
            break
        case = f"{SEED_VARIABLE}={seed}, case {number}"
        data = mutator.mutate(rng.choice(games))
        xml, spec = tmp_path / f"case{number}.xml", tmp_path / f"case{number}.yaml"
        xml.write_bytes(data)

        status, err = run("import", str(xml), "-o", str(spec))
        check_refusals(status, err, case + " (import)")
        assert (status == 0) == spec.exists(), case
        written = spec.read_text("utf-8", "replace") if spec.exists() else ""
        assert secret_text not in err + written, case

        status, err = run("validate", str(xml))
        check_refusals(status, err, case + " (validate)")
        assert secret_text not in err, case

        try:
            vet_for_engine(xml)
        except DiagnosticError as error:
            refused += 1
            first = error.diagnostics[0]
            if first.code in READER_CODES:
                assert first.position.line >= 1, f"{case}: {first.format()}"
        else:
            assert all(_BARE_NAME.fullmatch(url) for url in asked_for(data)), f"{case}: {asked_for(data)}"
        done += 1
    assert done >= 100, f"only {done} cases in {TIME_BUDGET:.0f} s ({SEED_VARIABLE}={seed})"
    assert 0 < refused < done, f"{SEED_VARIABLE}={seed}: {refused} of {done} refused; the mutations miss one side"
