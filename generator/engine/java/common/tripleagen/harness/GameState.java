package tripleagen.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A plain copy of what the reports read from a game, made by an engine's adapter (its Facts) from
 * its own data classes, so that every record built from it (Outcome, RoundStats) is written once
 * for both engines. Players and resources keep the game's order.
 */
public final class GameState {
  public final List<String> players = new ArrayList<>();
  public final List<String> resources = new ArrayList<>();
  /** Player, then resource (every resource of the game, in its order), then the quantity held. */
  public final Map<String, Map<String, Integer>> holdings = new LinkedHashMap<>();
  public final List<Territory> territories = new ArrayList<>();
  /** Player, then the unit type of each unit it has not placed yet. */
  public final Map<String, List<String>> unplaced = new LinkedHashMap<>();
  /** [player, player, relationship type] for every pair of players, in the game's order. */
  public final List<List<String>> relationships = new ArrayList<>();
  /** The switch of every condition attachment, by attachment name. */
  public final Map<String, Object> switches = new TreeMap<>();
  /** Who won, as the engine's end-of-round delegate recorded it; null while nobody has. */
  public List<String> winners;

  /** One territory: its owner (null: nobody), its production and each unit on it as [owner, type]. */
  public static final class Territory {
    public final String name;
    public final String owner;
    public final int production;
    public final List<String[]> units = new ArrayList<>();

    public Territory(final String name, final String owner, final int production) {
      this.name = name;
      this.owner = owner;
      this.production = production;
    }
  }

  public void addPlayer(final String player, final Map<String, Integer> held) {
    players.add(player);
    holdings.put(player, held);
    unplaced.put(player, new ArrayList<>());
  }

  /** The PUs a player holds (0 in a game without PUs). */
  public int pus(final String player) {
    return holdings.getOrDefault(player, Map.of()).getOrDefault(PUS, 0);
  }

  /** The name of the engine's PUs resource (Constants.PUS in both engines). */
  public static final String PUS = "PUs";

  /** Per player: the territories it owns and the production they give. */
  int[] owned(final String player) {
    final int[] owned = new int[2];
    for (final Territory territory : territories) {
      if (player.equals(territory.owner)) {
        owned[0]++;
        owned[1] += territory.production;
      }
    }
    return owned;
  }

  /** A player's units on the map, by type. */
  Map<String, Integer> unitsOf(final String player) {
    final Map<String, Integer> units = new TreeMap<>();
    for (final Territory territory : territories) {
      for (final String[] unit : territory.units) {
        if (player.equals(unit[0])) {
          units.merge(unit[1], 1, Integer::sum);
        }
      }
    }
    return units;
  }
}
