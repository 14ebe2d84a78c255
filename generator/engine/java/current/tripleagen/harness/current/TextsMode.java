package tripleagen.harness.current;

import java.util.List;
import java.util.Map;

/** The client texts questions (1.9's TextsMode) are not asked of the 2.x engine yet. */
final class TextsMode {
  private TextsMode() {}

  static Map<String, Object> run(final List<String> args) {
    throw new IllegalArgumentException("texts is answered by the 1.9 harness only");
  }
}
