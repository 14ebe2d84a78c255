package tripleagen.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each player's state at the end of every round, for the balance lab (--round-stats true): PUs,
 * the income collected in its end-turn steps, territories and production held, units on the map
 * by type (triplea-gen values them from the game's production costs), battles fought and the
 * unit value lost in them (the engine's own battle records, through Facts.battles).
 */
public final class RoundStats {
  private final Facts facts;
  private final List<Object> rounds = new ArrayList<>();
  private final Map<String, Integer> income = new TreeMap<>();
  private String collecting; // the player whose end-turn step is running
  private int pusBefore;
  private int lastRecorded = Integer.MIN_VALUE;
  private int stepsInRound; // a round that ended before any of its steps ran (a victory at the round's end) is none

  public RoundStats(final Facts facts) {
    this.facts = facts;
  }

  /** Before a step runs: an end-turn step (endTurnPlayer, else null) collects income, measured as the PUs it adds. */
  public void beforeStep(final String endTurnPlayer) {
    stepsInRound++;
    collecting = endTurnPlayer;
    if (collecting != null) {
      pusBefore = facts.pus(collecting);
    }
  }

  public void afterStep() {
    if (collecting != null) {
      income.merge(collecting, facts.pus(collecting) - pusBefore, Integer::sum);
    }
    collecting = null;
  }

  /** The snapshot of a round just ended (complete) or where the game stopped within it. */
  public void endRound(final int round, final boolean complete) {
    if (round == lastRecorded || (!complete && stepsInRound == 0)) {
      return;
    }
    lastRecorded = round;
    stepsInRound = 0;
    final Map<String, int[]> battles = facts.battles(round);
    final GameState state = facts.state();
    final Map<String, Object> players = new LinkedHashMap<>();
    for (final String player : state.players) {
      final int[] owned = state.owned(player);
      final int[] fought = battles.getOrDefault(player, new int[2]);
      final Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("pus", state.pus(player));
      entry.put("income", income.getOrDefault(player, 0));
      entry.put("territories", owned[0]);
      entry.put("production", owned[1]);
      entry.put("units", state.unitsOf(player));
      entry.put("battles", fought[0]);
      entry.put("lost_value", fought[1]);
      players.put(player, entry);
    }
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("round", round);
    entry.put("complete", complete);
    entry.put("players", players);
    rounds.add(entry);
    income.clear();
  }

  public List<Object> entries() {
    return new ArrayList<>(rounds);
  }

  /** Adds one battle record's side to the per-player counts of Facts.battles. */
  public static void countBattle(final Map<String, int[]> fought, final String player, final Integer lost) {
    if (player == null) {
      return;
    }
    final int[] entry = fought.computeIfAbsent(player, name -> new int[2]);
    entry[0]++;
    entry[1] += lost == null ? 0 : lost;
  }
}
