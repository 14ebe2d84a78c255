package tripleagen.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** `odds` in TripleA 2.x: not written yet (its calculator is BattleCalculator, another API than 1.9's). */
final class OddsMode {
  private OddsMode() {}

  static Map<String, Object> run(final List<String> args) {
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("ok", false);
    report.put("error", "odds runs in TripleA 1.9 only so far");
    return report;
  }
}
