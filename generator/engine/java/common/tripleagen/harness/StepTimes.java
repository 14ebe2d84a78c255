package tripleagen.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The wall time of every step a game ran, so that a report can name the steps where a player
 * (an AI above all) thought longest. Engine-free: both engines' play modes feed it.
 */
public final class StepTimes {
  /** How many of the slowest steps a report lists. */
  public static final int SLOWEST = 10;

  private final List<Map<String, Object>> steps = new ArrayList<>();

  public void add(final int round, final String step, final String player, final double seconds) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("round", round);
    entry.put("step", step);
    entry.put("player", player);
    entry.put("seconds", seconds);
    steps.add(entry);
  }

  /** The slowest steps, slowest first; steps equally slow keep the order they ran in. */
  public List<Map<String, Object>> slowest() {
    final List<Map<String, Object>> sorted = new ArrayList<>(steps);
    sorted.sort(Comparator.comparingDouble((Map<String, Object> e) -> (Double) e.get("seconds")).reversed());
    return new ArrayList<>(sorted.subList(0, Math.min(SLOWEST, sorted.size())));
  }
}
