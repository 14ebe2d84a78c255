package tripleagen.harness.alike;

import javax.swing.tree.TreeNode;

import games.strategy.engine.data.GameData;
import games.strategy.engine.history.Event;
import games.strategy.engine.history.EventChild;
import games.strategy.engine.history.Round;
import games.strategy.engine.history.Step;
import games.strategy.triplea.delegate.DiceRoll;
import tripleagen.harness.Facts;
import tripleagen.harness.History;
import tripleagen.harness.Reflection;

/**
 * The history part of Facts (its tree and the kinds of its nodes), over a GameData: the history
 * classes have the same names and methods in both engines, so this is written once and compiled
 * with each; each engine's GameFacts extends it with the rest.
 */
public abstract class HistoryFacts implements Facts {
  protected final GameData data;

  protected HistoryFacts(final GameData data) {
    this.data = data;
  }

  @Override
  public TreeNode historyRoot() {
    return (TreeNode) data.getHistory().getRoot();
  }

  @Override
  public Integer roundOf(final TreeNode node) {
    return node instanceof Round ? ((Round) node).getRoundNo() : null;
  }

  @Override
  public String stepOf(final TreeNode node) {
    return node instanceof Step ? ((Step) node).getStepName() : null;
  }

  @Override
  public String eventOf(final TreeNode node) {
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
