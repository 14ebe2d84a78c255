package games.strategy.engine.random;

import java.util.Random;

/**
 * triplea-gen's stand-in for the engine's PlainRandomSource (first on the class path, so the
 * engine loads this one): the AIs simulate battles with dice from new PlainRandomSource objects,
 * which the engine seeds from the clock, so that a seeded game could not be played again. Here
 * every new source draws from a generator seeded by the game's seed and the number of sources
 * made before it. Without a seed (PlainRandomSource.reseed never called) it seeds from the clock
 * as the engine does.
 */
public class PlainRandomSource implements IRandomSource {
  private static long gameSeed;
  private static boolean seeded;
  private static long made;

  private final Random random;

  public PlainRandomSource() {
    random = new Random(nextSeed());
  }

  /** Called by the harness before a seeded game: the sources made from now on repeat. */
  public static synchronized void reseed(final long seed) {
    gameSeed = seed;
    seeded = true;
    made = 0;
  }

  private static synchronized long nextSeed() {
    made++;
    return seeded ? gameSeed * 0x9E3779B97F4A7C15L + made : System.nanoTime();
  }

  @Override
  public synchronized int[] getRandom(final int max, final int count, final String annotation) {
    if (max <= 0 || count <= 0) {
      throw new IllegalArgumentException("max and count must be > 0 (" + annotation + ")");
    }
    final int[] numbers = new int[count];
    for (int i = 0; i < count; i++) {
      numbers[i] = random.nextInt(max);
    }
    return numbers;
  }

  @Override
  public synchronized int getRandom(final int max, final String annotation) {
    if (max <= 0) {
      throw new IllegalArgumentException("max must be > 0 (" + annotation + ")");
    }
    return random.nextInt(max);
  }
}
