package tripleagen.harness.current;

import tripleagen.harness.EngineModes;
import tripleagen.harness.Harness;

/** The harness for TripleA 2.x: Harness with this package's modes (engines.MAIN_CLASSES names this class). */
public final class Main {
  private Main() {}

  public static void main(final String[] args) {
    Harness.run(args, new EngineModes(CheckMode::run, OddsMode::run, TextsMode::run,
        (options, log, reportOut) -> new PlayMode(options, log, reportOut).run()));
  }
}
