package tripleagen.harness.alike;

import games.strategy.engine.data.GameSequence;

/** A game's sequence of steps, read through what both engines' GameSequence has. */
public final class Sequences {
  private Sequences() {}

  /** The index of the step named name, -1 when there is none. */
  public static int stepIndex(final GameSequence sequence, final String name) {
    for (int i = 0; i < sequence.size(); i++) {
      if (sequence.getStep(i).getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
