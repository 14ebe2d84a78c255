package tripleagen.harness.alike;

import javax.swing.tree.TreeNode;

import games.strategy.engine.history.Event;
import games.strategy.engine.history.EventChild;
import games.strategy.engine.history.Round;
import games.strategy.engine.history.Step;
import games.strategy.triplea.delegate.DiceRoll;
import tripleagen.harness.History;
import tripleagen.harness.Reflection;

/**
 * The kinds of a game's history nodes, for Facts (roundOf, stepOf, eventOf): the history classes
 * have the same names and methods in both engines, so this is written once and compiled with each.
 */
public final class HistoryNodes {
  private HistoryNodes() {}

  public static Integer roundOf(final TreeNode node) {
    return node instanceof Round ? ((Round) node).getRoundNo() : null;
  }

  public static String stepOf(final TreeNode node) {
    return node instanceof Step ? ((Step) node).getStepName() : null;
  }

  /** An event's text, a dice roll's as History.diceText makes it, else null. */
  public static String eventOf(final TreeNode node) {
    if (node instanceof Event) {
      return ((Event) node).getDescription();
    }
    if (node instanceof EventChild && ((EventChild) node).getRenderingData() instanceof DiceRoll) {
      final DiceRoll dice = (DiceRoll) ((EventChild) node).getRenderingData();
      final int[] rolledAt = new int[dice.size()];
      for (int i = 0; i < rolledAt.length; i++) {
        try { // Die.getRolledAt is package-private
          rolledAt[i] = (Integer) Reflection.invokePrivate(dice.getDie(i), "getRolledAt");
        } catch (final ReflectiveOperationException e) {
          throw new IllegalStateException("the engine's Die has no getRolledAt", e);
        }
      }
      return History.diceText(node.toString(), rolledAt);
    }
    return null;
  }
}
