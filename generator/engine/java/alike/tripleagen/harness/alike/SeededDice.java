package tripleagen.harness.alike;

import java.util.Random;

import games.strategy.engine.random.IRandomSource;

/** Dice from a seeded generator, so that a run can be repeated (IRandomSource is the same in both engines). */
public final class SeededDice implements IRandomSource {
  private final Random random;

  public SeededDice(final long seed) {
    random = new Random(seed);
  }

  @Override
  public synchronized int getRandom(final int max, final String annotation) {
    return random.nextInt(max);
  }

  @Override
  public synchronized int[] getRandom(final int max, final int count, final String annotation) {
    if (count <= 0) {
      throw new IllegalArgumentException("count must be > 0, annotation:" + annotation);
    }
    final int[] numbers = new int[count];
    for (int i = 0; i < count; i++) {
      numbers[i] = random.nextInt(max);
    }
    return numbers;
  }
}
