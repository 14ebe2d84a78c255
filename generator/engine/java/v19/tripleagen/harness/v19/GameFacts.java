package tripleagen.harness.v19;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.triplea.Constants;
import games.strategy.triplea.attachments.AbstractRulesAttachment;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.delegate.EndRoundDelegate;
import games.strategy.triplea.delegate.dataObjects.BattleRecord;
import games.strategy.triplea.delegate.dataObjects.BattleRecords;
import games.strategy.triplea.formatter.MyFormatter;
import games.strategy.util.Tuple;
import tripleagen.harness.alike.HistoryFacts;
import tripleagen.harness.GameState;
import tripleagen.harness.RoundStats;

/** The reports' reads of a 1.9 game (Facts, its history read by HistoryFacts): its GameData through the 1.9 API. */
final class GameFacts extends HistoryFacts {
  GameFacts(final GameData data) {
    super(data);
  }

  @Override
  public GameState state() {
    final GameState state = new GameState();
    final List<PlayerID> players = data.getPlayerList().getPlayers();
    for (final Resource resource : data.getResourceList().getResources()) {
      state.resources.add(resource.getName());
    }
    for (final PlayerID player : players) {
      final Map<String, Integer> held = new LinkedHashMap<>();
      for (final Resource resource : data.getResourceList().getResources()) {
        held.put(resource.getName(), player.getResources().getQuantity(resource));
      }
      state.addPlayer(player.getName(), held);
      for (final Unit unit : player.getUnits().getUnits()) {
        state.unplaced.get(player.getName()).add(unit.getType().getName());
      }
    }
    for (final Territory territory : data.getMap().getTerritories()) {
      final TerritoryAttachment attachment = TerritoryAttachment.get(territory);
      final GameState.Territory copy = new GameState.Territory(territory.getName(),
          territory.getOwner() == null ? null : territory.getOwner().getName(),
          attachment == null ? 0 : attachment.getProduction());
      for (final Unit unit : territory.getUnits().getUnits()) {
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
    for (final Tuple<IAttachment, ArrayList<Tuple<String, String>>> attachment : data.getAttachmentOrderAndValues()) {
      if (attachment.getFirst() instanceof AbstractRulesAttachment) {
        state.switches.put(attachment.getFirst().getName(), ((AbstractRulesAttachment) attachment.getFirst()).getSwitch());
      }
    }
    state.winners = winners();
    return state;
  }

  private List<String> winners() {
    for (final IDelegate delegate : data.getDelegateList()) {
      if (delegate instanceof EndRoundDelegate && ((EndRoundDelegate) delegate).getWinners() != null) {
        final List<String> names = new ArrayList<>();
        for (final PlayerID winner : ((EndRoundDelegate) delegate).getWinners()) {
          names.add(winner.getName());
        }
        return names;
      }
    }
    return null;
  }

  @Override
  public int pus(final String player) {
    final Resource pus = data.getResourceList().getResource(Constants.PUS);
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
        RoundStats.countBattle(fought, name(field(record, "attacker")), (Integer) field(record, "attackerLostTUV"));
        RoundStats.countBattle(fought, name(field(record, "defender")), (Integer) field(record, "defenderLostTUV"));
      } catch (final ReflectiveOperationException e) {
        return fought; // 1.9's record fields are private; without them no battles are counted
      }
    }
    return fought;
  }

  private static String name(final Object player) {
    return player == null ? null : ((PlayerID) player).getName();
  }

  private static Object field(final Object target, final String name) throws ReflectiveOperationException {
    final Field field = BattleRecord.class.getDeclaredField(name);
    field.setAccessible(true);
    return field.get(target);
  }

  @Override
  public Map<String, String> triggerPrefixes() {
    final Map<String, String> prefixes = new LinkedHashMap<>();
    for (final Tuple<IAttachment, ArrayList<Tuple<String, String>>> attachment : data.getAttachmentOrderAndValues()) {
      if (attachment.getFirst() instanceof TriggerAttachment) {
        final String name = attachment.getFirst().getName();
        prefixes.put(MyFormatter.attachmentNameToText(name) + ":", name);
      }
    }
    return prefixes;
  }
}
