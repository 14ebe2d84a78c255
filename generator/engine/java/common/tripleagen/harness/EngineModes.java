package tripleagen.harness;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * What one engine's adapter package (tripleagen.harness.v19 for 1.9, tripleagen.harness.current
 * for 2.x) answers for Harness: each mode's calls into that engine's API. Everything else (options,
 * the serve loop, JSON, the log) is Harness's, written once.
 */
public final class EngineModes {
  /** A mode that answers its arguments with one report. */
  public interface Report {
    Map<String, Object> answer(List<String> args) throws Exception;
  }

  /** Play mode: plays one game and prints its one report line; returns once it is printed. */
  public interface Play {
    void play(PlayOptions options, EngineLog log, PrintStream reportOut);
  }

  final Report check; // GAME...: {results: [check result...]}
  final Report odds; // GAME SEED RUNS BATTLE...
  final Report texts; // MAP_NAME MAP_DIR QUESTION...
  final Play play;

  public EngineModes(final Report check, final Report odds, final Report texts, final Play play) {
    this.check = check;
    this.odds = odds;
    this.texts = texts;
    this.play = play;
  }
}
