package tripleagen.harness.current;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import tripleagen.harness.EngineLog;
import tripleagen.harness.EngineModes;
import tripleagen.harness.Harness;
import tripleagen.harness.PlayOptions;

/** The harness for TripleA 2.x: Harness with this package's modes (engines.py names this class). */
public final class Main implements EngineModes {
  public static void main(final String[] args) {
    Harness.run(args, new Main());
  }

  @Override
  public Map<String, Object> check(final List<String> paths) {
    return CheckMode.run(paths);
  }

  @Override
  public Map<String, Object> odds(final List<String> args) throws Exception {
    return OddsMode.run(args);
  }

  @Override
  public Map<String, Object> texts(final List<String> args) throws Exception {
    return TextsMode.run(args);
  }

  @Override
  public void play(final PlayOptions options, final EngineLog log, final PrintStream reportOut) {
    new PlayMode(options, log, reportOut).run();
  }
}
