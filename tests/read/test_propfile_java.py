""".properties keys beyond U+FFFF read as Java's Properties.load(InputStream) reads them (both
clients' ResourceLoader.loadPropertyFile): \\u escapes of a surrogate pair are one character, a lone
surrogate stays one, raw bytes are ISO-8859-1 (a raw UTF-8 emoji is four other characters)."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from lxml import etree

from generator.check.mapfolder import MapFolder, check_map_folder
from generator.read.propfile import merge_properties, read_properties

EMOJI = "\U0001F600"
FILE = (b"\\uD83D\\uDE00_WIN=escaped pair\n"
        b"\xf0\x9f\x98\x80_RAW=raw UTF-8\n"
        b"\\uD83D_LONE=lone surrogate\n"
        b"\\ud83d\\ude00\\u0041=lower-case escapes\n")


def test_an_escaped_surrogate_pair_is_one_character_as_in_java():
    keys = read_properties(FILE)
    assert f"{EMOJI}_WIN" in keys and f"{EMOJI}A" in keys
    assert "\ud83d_LONE" in keys  # Java keeps a lone surrogate as it is
    assert "\u00f0\u009f\u0098\u0080_RAW" in keys  # ISO-8859-1, as Properties.load(InputStream)


def test_a_key_beyond_u_ffff_is_merged_once():
    first = merge_properties(None, [(f"{EMOJI}_WIN", "You win")], "a.xml")
    assert first == b"# Added by triplea-gen for a.xml\n\\ud83d\\ude00_WIN=You win\n"
    assert merge_properties(first, [(f"{EMOJI}_WIN", "You win")], "b.xml") is None  # already there


def _game(key: str):
    return etree.fromstring(
        f'<game><playerList><player name="Germans"/></playerList><attachmentList>'
        f'<attachment name="triggerAttachment_win" attachTo="Germans" javaClass="TriggerAttachment" type="player">'
        f'<option name="notification" value="{key}"/></attachment></attachmentList></game>'.encode("utf-8"))


def _tg170(tmp_path, data: bytes, key: str) -> list[str]:
    (tmp_path / "notifications.properties").write_bytes(data)
    root = _game(key)
    found = check_map_folder(root, MapFolder([tmp_path]), engine="current", position_of=lambda e: None)
    return [f"{d.message} / {d.hint}" for d in found if d.code == "TG170"]


def test_tg170_finds_an_emoji_key_written_as_escapes(tmp_path):
    assert _tg170(tmp_path, b"\\uD83D\\uDE00_WIN=You win\n", f"{EMOJI}_WIN") == []


def test_tg170_says_how_to_write_an_emoji_key_written_as_raw_utf8(tmp_path):
    found = _tg170(tmp_path, f"{EMOJI}_WIN=You win\n".encode("utf-8"), f"{EMOJI}_WIN")
    assert len(found) == 1 and "reads as ISO-8859-1" in found[0] and "\\ud83d\\ude00_WIN=..." in found[0]


JAVA = """
import java.io.FileInputStream;
import java.util.Properties;
import java.util.TreeSet;

public class Keys {
  public static void main(String[] args) throws Exception {
    Properties properties = new Properties();
    try (FileInputStream in = new FileInputStream(args[0])) { properties.load(in); }
    for (String key : new TreeSet<>(properties.stringPropertyNames())) {
      StringBuilder line = new StringBuilder();
      key.codePoints().forEach(c -> line.append(Integer.toHexString(c)).append(' '));
      System.out.println(line.toString().trim());
    }
  }
}
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="no Java compiler")
def test_the_keys_are_the_ones_java_reads(tmp_path):
    (tmp_path / "Keys.java").write_text(JAVA)
    (tmp_path / "t.properties").write_bytes(FILE)
    subprocess.run(["javac", "Keys.java"], cwd=tmp_path, check=True, timeout=120)
    java = subprocess.run(["java", "-cp", ".", "Keys", "t.properties"], cwd=tmp_path, check=True, timeout=60,
                          capture_output=True, text=True).stdout.split("\n")
    ours = [" ".join(f"{ord(c):x}" for c in key) for key in read_properties(FILE)]
    assert sorted(ours) == sorted(line for line in java if line)
