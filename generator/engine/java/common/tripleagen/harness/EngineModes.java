package tripleagen.harness;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * What one engine's adapter package (tripleagen.harness.v19 for 1.9, tripleagen.harness.current
 * for 2.x) answers for Harness: each mode's calls into that engine's API. Everything else (options,
 * the serve loop, JSON, the log) is Harness's, written once.
 */
public interface EngineModes {
  /** The check report: {results: [check result...]}. */
  Map<String, Object> check(List<String> paths) throws Exception;

  /** The odds report: GAME SEED RUNS BATTLE... */
  Map<String, Object> odds(List<String> args) throws Exception;

  /** The texts report: MAP_NAME MAP_DIR QUESTION... */
  Map<String, Object> texts(List<String> args) throws Exception;

  /** Plays one game and prints its one report line to reportOut; returns once it is printed. */
  void play(PlayOptions options, EngineLog log, PrintStream reportOut);
}
