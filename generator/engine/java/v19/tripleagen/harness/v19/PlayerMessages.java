package tripleagen.harness.v19;

import tripleagen.harness.*;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.triplea.ui.display.HeadlessDisplay;

/**
 * A display that keeps what the engine shows the players in message windows: notifications
 * of triggers, victory and political messages, retreats. The engine broadcasts these on its
 * display channel to every display of the game; the headless display drops them, so this one
 * is added beside it (and beside the desktop client's own display).
 */
final class PlayerMessages extends HeadlessDisplay {
  private final GameData data;
  private final List<Map<String, Object>> messages = new ArrayList<>();

  PlayerMessages(final GameData data) {
    this.data = data;
  }

  synchronized List<Map<String, Object>> entries() {
    return new ArrayList<>(messages);
  }

  @Override
  public void reportMessageToAll(final String message, final String title, final boolean doNotIncludeHost,
      final boolean doNotIncludeClients, final boolean doNotIncludeObservers) {
    add("to all", title, message, List.of(), List.of());
  }

  @Override
  public void reportMessageToPlayers(final Collection<PlayerID> playersToSendTo,
      final Collection<PlayerID> butNotThesePlayers, final String message, final String title) {
    add("to players", title, message, names(playersToSendTo), names(butNotThesePlayers));
  }

  @Override
  public void notifyRetreat(final String shortMessage, final String message, final String step,
      final PlayerID retreatingPlayer) {
    add("retreat", shortMessage, message, names(List.of(retreatingPlayer)), List.of());
  }

  private synchronized void add(final String kind, final String title, final String text,
      final List<String> to, final List<String> notTo) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", kind);
    entry.put("title", title == null ? "" : title);
    entry.put("text", text == null ? "" : text);
    entry.put("to", to);
    entry.put("not_to", notTo);
    // Read without the game's lock: a message arrives while its step runs, so the step is stable.
    final GameStep step = data.getSequence().getStep();
    entry.put("round", data.getSequence().getRound());
    entry.put("step", step == null ? "" : step.getName());
    messages.add(entry);
  }

  private static List<String> names(final Collection<PlayerID> players) {
    final List<String> names = new ArrayList<>();
    if (players != null) {
      for (final PlayerID player : players) {
        if (player != null) {
          names.add(player.getName());
        }
      }
    }
    return names;
  }
}
