package tripleagen.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Where a played game ended up, as the play report's records: each player's state, each territory's. */
public final class Outcome {
  private Outcome() {}

  /** Per player: resources, territories owned, units on the map and units not yet placed, by type. */
  public static List<Object> playerStates(final GameState state) {
    final List<Object> states = new ArrayList<>();
    for (final String player : state.players) {
      final Map<String, Integer> unplaced = new TreeMap<>();
      for (final String type : state.unplaced.get(player)) {
        unplaced.merge(type, 1, Integer::sum);
      }
      final Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", player);
      entry.put("resources", new LinkedHashMap<>(state.holdings.get(player)));
      entry.put("territories", state.owned(player)[0]);
      entry.put("units", state.unitsOf(player));
      entry.put("unplaced_units", unplaced);
      states.add(entry);
    }
    return states;
  }

  /** Per territory: its owner and the units on it, by owner and type (scenario expectations read these). */
  public static Map<String, Object> territoryStates(final GameState state) {
    final Map<String, Object> states = new TreeMap<>();
    for (final GameState.Territory territory : state.territories) {
      final Map<String, Map<String, Integer>> units = new TreeMap<>();
      for (final String[] unit : territory.units) {
        units.computeIfAbsent(unit[0], owner -> new TreeMap<>()).merge(unit[1], 1, Integer::sum);
      }
      final Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("owner", territory.owner);
      entry.put("units", units);
      states.put(territory.name, entry);
    }
    return states;
  }

  /** The end state's records of a play report, in the report's order (after "client"). */
  public static void putEndState(final Map<String, Object> report, final Facts facts, final boolean history) {
    final GameState state = facts.state();
    report.put("fired", History.firedTriggers(facts));
    report.put("air_removed", History.airRemoved(facts));
    report.put("winners", state.winners);
    report.put("players", playerStates(state));
    report.put("territories", territoryStates(state));
    report.put("relationships", new ArrayList<Object>(state.relationships));
    report.put("switches", new TreeMap<>(state.switches));
    if (history) {
      report.put("history", History.historyEvents(facts, 20000));
    }
  }
}
