package tripleagen.harness;

import javax.swing.tree.TreeNode;

/**
 * What an engine's adapter reads from its game for the reports: the only engine-specific part of
 * Outcome, History and RoundStats (each engine's GameFacts implements it over its GameData).
 */
public interface Facts {
  /** The game's state now. */
  GameState state();

  /** The PUs a player holds now (cheaper than a whole state, read around every end-turn step). */
  int pus(String player);

  /** Per player: [battles it fought in the round as attacker or defender, the unit value it lost]. */
  java.util.Map<String, int[]> battles(int round);

  /** The root of the game's history tree (javax.swing nodes in both engines). */
  TreeNode historyRoot();

  /** The round of a round node, else null. */
  Integer roundOf(TreeNode node);

  /** The step name of a step node, else null. */
  String stepOf(TreeNode node);

  /** The text of an event node (a dice roll's as History.diceText makes it), else null. */
  String eventOf(TreeNode node);

  /** Each trigger attachment's shown prefix ("Trigger X:", as its history events start) to its name. */
  java.util.Map<String, String> triggerPrefixes();
}
