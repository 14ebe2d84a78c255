package tripleagen.harness.v19;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.triplea.ui.display.HeadlessDisplay;
import tripleagen.harness.MessageLog;

/**
 * A 1.9 display that hands what the engine shows the players in message windows to a MessageLog.
 * The engine broadcasts these on its display channel to every display of the game; the headless
 * display drops them, so this one is added beside it (and beside the desktop client's own display).
 */
final class PlayerMessages extends HeadlessDisplay {
  private final GameData data;
  final MessageLog log = new MessageLog();

  PlayerMessages(final GameData data) {
    this.data = data;
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

  private void add(final String kind, final String title, final String text, final List<String> to,
      final List<String> notTo) {
    // Read without the game's lock: a message arrives while its step runs, so the step is stable.
    final GameStep step = data.getSequence().getStep();
    log.add(kind, title, text, to, notTo, data.getSequence().getRound(), step == null ? "" : step.getName());
  }

  private static List<String> names(final Collection<PlayerID> players) {
    final List<String> names = new ArrayList<>();
    if (players != null) {
      players.stream().filter(player -> player != null).forEach(player -> names.add(player.getName()));
    }
    return names;
  }
}
