package tripleagen.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a scenario scripts for one player (triplea-gen test's play: actions, purchases, placements),
 * and the notes shared by all scripted players of a run: what they could not do. A rule that
 * forbids something is shown by the scripted player not being able to do it.
 */
public final class Script {
  public final List<String> politicalActions = new ArrayList<>();
  public final List<String> userActions = new ArrayList<>();
  public final Map<String, Integer> purchases = new LinkedHashMap<>(); // unit type or resource -> how many
  public final Map<String, Map<String, Integer>> placements = new LinkedHashMap<>(); // territory -> unit type -> how many
  public final List<Move> moves = new ArrayList<>();

  /** Units moved along a path (from, through, to) in the combat or non-combat move. */
  public static final class Move {
    public final boolean nonCombat;
    public final List<String> path;
    public final Map<String, Integer> units = new LinkedHashMap<>();

    public Move(final boolean nonCombat, final List<String> path) {
      this.nonCombat = nonCombat;
      this.path = path;
    }

    public String describe() {
      return units + " from " + path.get(0) + " to " + path.get(path.size() - 1);
    }
  }

  /** The notes of one run, and the "round:step" of each step a scripted player was asked to act in. */
  public static final class Notes {
    public final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> stepsVisited = Collections.synchronizedSet(new HashSet<>());

    public void visited(final int round, final String step) {
      stepsVisited.add(round + ":" + step);
    }

    public boolean wasVisited(final int round, final String step) {
      return stepsVisited.contains(round + ":" + step);
    }

    public void notOffered(final String player, final String action, final int round, final String step) {
      lines.add(player + " was not offered " + action + " in round " + round + ", step " + step);
    }

    public List<String> snapshot() {
      synchronized (lines) {
        return new ArrayList<>(lines);
      }
    }
  }

  /** Reads one --political-action, --user-action, --purchase, --place or --move value: PLAYER=WHAT. */
  public static void add(final Map<String, Script> scripts, final String option, final String value) {
    final int equals = value.indexOf('=');
    if (equals <= 0) {
      throw new IllegalArgumentException(option + " takes PLAYER=..., not " + value);
    }
    final Script script = scripts.computeIfAbsent(value.substring(0, equals), player -> new Script());
    final String what = value.substring(equals + 1);
    final String[] parts = what.split(":", -1);
    switch (option) {
      case "--political-action":
        script.politicalActions.add(what);
        break;
      case "--user-action":
        script.userActions.add(what);
        break;
      case "--purchase": // UNIT:N
        requireParts(option, value, parts, 2);
        script.purchases.merge(parts[0], Integer.parseInt(parts[1]), Integer::sum);
        break;
      case "--place": // TERRITORY:UNIT:N
        requireParts(option, value, parts, 3);
        script.placements.computeIfAbsent(parts[0], territory -> new LinkedHashMap<>())
            .merge(parts[1], Integer.parseInt(parts[2]), Integer::sum);
        break;
      case "--move": { // combat|noncombat:FROM>...>TO:UNIT*N,UNIT*N
        requireParts(option, value, parts, 3);
        final Move move = new Move(parts[0].equals("noncombat"), List.of(parts[1].split(">")));
        for (final String units : parts[2].split(",")) {
          final int star = units.lastIndexOf('*');
          move.units.put(units.substring(0, star), Integer.parseInt(units.substring(star + 1)));
        }
        script.moves.add(move);
        break;
      }
      default:
        throw new IllegalArgumentException("unknown option " + option);
    }
  }

  private static void requireParts(final String option, final String value, final String[] parts, final int count) {
    if (parts.length != count) {
      throw new IllegalArgumentException(option + " takes PLAYER= and " + count + " parts split by ':', not " + value);
    }
  }
}
