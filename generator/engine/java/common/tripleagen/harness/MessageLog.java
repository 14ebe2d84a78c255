package tripleagen.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the engine showed the players in message windows (notifications of triggers, victory and
 * political messages, retreats), as the play report's messages. Each engine's PlayerMessages (a
 * display beside the game's own) hands every message here with the round and step it came in.
 */
public final class MessageLog {
  private final List<Map<String, Object>> messages = new ArrayList<>();

  public synchronized List<Map<String, Object>> entries() {
    return new ArrayList<>(messages);
  }

  /** One message: kind is "to all", "to players" or "retreat"; to and notTo name players. */
  public synchronized void add(final String kind, final String title, final String text, final List<String> to,
      final List<String> notTo, final int round, final String step) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", kind);
    entry.put("title", title == null ? "" : title);
    entry.put("text", text == null ? "" : text);
    entry.put("to", to);
    entry.put("not_to", notTo);
    entry.put("round", round);
    entry.put("step", step == null ? "" : step);
    messages.add(entry);
  }
}
