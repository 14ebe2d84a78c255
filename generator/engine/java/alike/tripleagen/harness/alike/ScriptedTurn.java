package tripleagen.harness.alike;

import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import games.strategy.engine.data.GameData;
import games.strategy.triplea.attachments.AbstractUserActionAttachment;
import tripleagen.harness.Script;

/**
 * The engine-alike part of a scripted player (each engine's ScriptedPlayer): where in the game it
 * acts, the steps it was asked in, and its political or user actions attempted by name.
 */
public final class ScriptedTurn {
  private final String player;
  private final Script.Notes notes;
  private final Supplier<GameData> data;

  public ScriptedTurn(final String player, final Script.Notes notes, final Supplier<GameData> data) {
    this.player = player;
    this.notes = notes;
    this.data = data;
  }

  /** The player was asked to act in the current step (a step the engine skips is noted by the run). */
  public void visited() {
    notes.visited(data.get().getSequence().getRound(), data.get().getSequence().getStep().getName());
  }

  /** " in round R, step S", for the run's notes. */
  public String where() {
    return " in round " + data.get().getSequence().getRound() + ", step " + data.get().getSequence().getStep().getName();
  }

  /** Each named action the game offers now is attempted; the others are noted as not offered. */
  public <T extends AbstractUserActionAttachment> void attemptEach(final List<String> names,
      final Supplier<Collection<T>> offered, final Consumer<T> attempt) {
    for (final String name : names) {
      T chosen = null;
      for (final T action : offered.get()) {
        if (action.getName().equals(name)) {
          chosen = action;
        }
      }
      if (chosen == null) {
        notes.notOffered(player, name, data.get().getSequence().getRound(),
            data.get().getSequence().getStep().getName());
      } else {
        attempt.accept(chosen);
      }
    }
  }
}
