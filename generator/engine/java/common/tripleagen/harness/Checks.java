package tripleagen.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The engine's load check (Harness check) as its report: each engine's CheckMode parses, this writes. */
public final class Checks {
  private Checks() {}

  /** The outcome of one parse: the game (G: the engine's GameData) or the engine's reason, plus DTD complaints. */
  public static final class Parsed<G> {
    public G data;
    public String error;
    public final List<String> dtdComplaints = new ArrayList<>();
  }

  /** {results: [{path, ok, counts, error, warnings}...]}: counts of a game the engine loaded, else null. */
  public static <G> Map<String, Object> run(final List<String> paths, final Function<String, Parsed<G>> parse,
      final Function<G, Map<String, Object>> counts) {
    final List<Object> results = new ArrayList<>();
    for (final String path : paths) {
      final Parsed<G> parsed = parse.apply(path);
      final Map<String, Object> result = new LinkedHashMap<>();
      result.put("path", path);
      result.put("ok", parsed.data != null);
      result.put("counts", parsed.data == null ? null : counts.apply(parsed.data));
      result.put("error", parsed.error);
      result.put("warnings", parsed.dtdComplaints);
      results.add(result);
    }
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("results", results);
    return report;
  }

  /** What a loaded game holds, as the check result's counts. */
  public static Map<String, Object> counts(final int territories, final int players, final int unitTypes,
      final int attachments, final int triggers, final int steps) {
    final Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("territories", territories);
    counts.put("players", players);
    counts.put("unit_types", unitTypes);
    counts.put("attachments", attachments);
    counts.put("triggers", triggers);
    counts.put("steps", steps);
    return counts;
  }
}
