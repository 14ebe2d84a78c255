package tripleagen.harness.current;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.triplea.Constants;
import games.strategy.triplea.attachments.AbstractRulesAttachment;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.delegate.EndRoundDelegate;
import games.strategy.triplea.delegate.data.BattleRecord;
import games.strategy.triplea.delegate.data.BattleRecords;
import games.strategy.triplea.formatter.MyFormatter;
import org.triplea.util.Tuple;
import tripleagen.harness.alike.HistoryFacts;
import tripleagen.harness.GameState;
import tripleagen.harness.Reflection;
import tripleagen.harness.RoundStats;

/** The reports' reads of a 2.x game (Facts, its history read by HistoryFacts): its GameData through the 2.x API. */
final class GameFacts extends HistoryFacts {
  GameFacts(final GameData data) {
    super(data);
  }

  @Override
  public GameState state() {
    final GameState state = new GameState();
    final List<GamePlayer> players = data.getPlayerList().getPlayers();
    for (final Resource resource : data.getResourceList().getResources()) {
      state.resources.add(resource.getName());
    }
    for (final GamePlayer player : players) {
      final Map<String, Integer> held = new LinkedHashMap<>();
      for (final Resource resource : data.getResourceList().getResources()) {
        held.put(resource.getName(), player.getResources().getQuantity(resource));
      }
      state.addPlayer(player.getName(), held);
      for (final Unit unit : player.getUnits()) {
        state.unplaced.get(player.getName()).add(unit.getType().getName());
      }
    }
    for (final Territory territory : data.getMap().getTerritories()) {
      final GameState.Territory copy = new GameState.Territory(territory.getName(),
          territory.getOwner() == null ? null : territory.getOwner().getName(),
          TerritoryAttachment.getProduction(territory));
      for (final Unit unit : territory.getUnits()) {
        copy.units.add(new String[] {unit.getOwner().getName(), unit.getType().getName()});
      }
      state.territories.add(copy);
    }
    for (int i = 0; i < players.size(); i++) {
      for (int j = i + 1; j < players.size(); j++) {
        state.relationships.add(List.of(players.get(i).getName(), players.get(j).getName(),
            data.getRelationshipTracker().getRelationshipType(players.get(i), players.get(j)).getName()));
      }
    }
    for (final Tuple<IAttachment, List<Tuple<String, String>>> attachment : data.getAttachmentOrderAndValues()) {
      if (attachment.getFirst() instanceof AbstractRulesAttachment) {
        state.switches.put(attachment.getFirst().getName(), switchOf((AbstractRulesAttachment) attachment.getFirst()));
      }
    }
    state.winners = winners();
    return state;
  }

  private List<String> winners() {
    for (final IDelegate delegate : data.getDelegates()) {
      if (delegate instanceof EndRoundDelegate && ((EndRoundDelegate) delegate).getWinners() != null
          && !((EndRoundDelegate) delegate).getWinners().isEmpty()) { // 2.x: empty, not null, while nobody has won
        final List<String> names = new ArrayList<>();
        for (final GamePlayer winner : ((EndRoundDelegate) delegate).getWinners()) {
          names.add(winner.getName());
        }
        return names;
      }
    }
    return null;
  }

  /** 2.x keeps a condition's switch private (its property "switch" reads it); 1.9 had a getter. */
  private static Object switchOf(final AbstractRulesAttachment attachment) {
    try {
      return Reflection.invokePrivate(attachment, "getSwitch");
    } catch (final ReflectiveOperationException e) {
      return attachment.getProperty("switch").map(property -> property.getValue()).orElse(null);
    }
  }

  @Override
  public int pus(final String player) {
    final Resource pus = data.getResourceList().getResourceOptional(Constants.PUS).orElse(null);
    return pus == null ? 0 : data.getPlayerList().getPlayerId(player).getResources().getQuantity(pus);
  }

  @Override
  public Map<String, int[]> battles(final int round) {
    final Map<String, int[]> fought = new TreeMap<>();
    final BattleRecords records = data.getBattleRecordsList().getBattleRecordsMap().get(round);
    if (records == null) {
      return fought;
    }
    for (final BattleRecord record : BattleRecords.getAllRecords(records)) {
      try {
        RoundStats.countBattle(fought, name(field(record, "attacker")), (Integer) field(record, "attackerLostTuv"));
        RoundStats.countBattle(fought, name(field(record, "defender")), (Integer) field(record, "defenderLostTuv"));
      } catch (final ReflectiveOperationException e) {
        return fought; // the record's fields are private; without them no battles are counted
      }
    }
    return fought;
  }

  private static String name(final Object player) {
    return player == null ? null : ((GamePlayer) player).getName();
  }

  private static Object field(final Object target, final String name) throws ReflectiveOperationException {
    final Field field = BattleRecord.class.getDeclaredField(name);
    field.setAccessible(true);
    return field.get(target);
  }

  @Override
  public Map<String, String> triggerPrefixes() {
    final Map<String, String> prefixes = new LinkedHashMap<>();
    for (final Tuple<IAttachment, List<Tuple<String, String>>> attachment : data.getAttachmentOrderAndValues()) {
      if (attachment.getFirst() instanceof TriggerAttachment) {
        final String name = attachment.getFirst().getName();
        prefixes.put(MyFormatter.attachmentNameToText(name) + ":", name);
      }
    }
    return prefixes;
  }
}
