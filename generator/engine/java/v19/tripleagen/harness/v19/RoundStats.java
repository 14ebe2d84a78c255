package tripleagen.harness.v19;

import tripleagen.harness.*;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.Constants;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.delegate.AbstractEndTurnDelegate;
import games.strategy.triplea.delegate.dataObjects.BattleRecord;
import games.strategy.triplea.delegate.dataObjects.BattleRecords;

/**
 * Each player's state at the end of every round, for the balance lab (--round-stats true): PUs,
 * the income collected in its end-turn steps, territories and production held, units on the map
 * by type (triplea-gen values them from the game's production costs), battles fought and the
 * unit value lost in them (the engine's own battle records).
 */
final class RoundStats {
  private final GameData data;
  private final List<Object> rounds = new ArrayList<>();
  private final Map<String, Integer> income = new TreeMap<>();
  private String collecting; // the player whose end-turn step is running
  private int pusBefore;
  private int lastRecorded = Integer.MIN_VALUE;
  private int stepsInRound; // a round that ended before any of its steps ran (a victory at the round's end) is none

  RoundStats(final GameData data) {
    this.data = data;
  }

  /** Before a step runs: an end-turn step collects income, measured as the PUs it adds. */
  void beforeStep(final GameStep step) {
    stepsInRound++;
    collecting = null;
    if (step.getDelegate() instanceof AbstractEndTurnDelegate && step.getPlayerId() != null) {
      collecting = step.getPlayerId().getName();
      pusBefore = pus(step.getPlayerId());
    }
  }

  void afterStep(final GameStep step) {
    if (collecting != null && step.getPlayerId() != null) {
      income.merge(collecting, pus(step.getPlayerId()) - pusBefore, Integer::sum);
    }
    collecting = null;
  }

  /** The snapshot of a round just ended (complete) or where the game stopped within it. */
  void endRound(final int round, final boolean complete) {
    if (round == lastRecorded || (!complete && stepsInRound == 0)) {
      return;
    }
    lastRecorded = round;
    stepsInRound = 0;
    final Map<String, int[]> battles = battlesOf(round);
    final Map<String, Object> players = new LinkedHashMap<>();
    for (final PlayerID player : data.getPlayerList().getPlayers()) {
      int territories = 0;
      int production = 0;
      final Map<String, Integer> units = new TreeMap<>();
      for (final Territory territory : data.getMap().getTerritories()) {
        if (player.equals(territory.getOwner())) {
          territories++;
          final TerritoryAttachment attachment = TerritoryAttachment.get(territory);
          production += attachment == null ? 0 : attachment.getProduction();
        }
        for (final Unit unit : territory.getUnits().getUnits()) {
          if (player.equals(unit.getOwner())) {
            units.merge(unit.getType().getName(), 1, Integer::sum);
          }
        }
      }
      final int[] fought = battles.getOrDefault(player.getName(), new int[2]);
      final Map<String, Object> state = new LinkedHashMap<>();
      state.put("pus", pus(player));
      state.put("income", income.getOrDefault(player.getName(), 0));
      state.put("territories", territories);
      state.put("production", production);
      state.put("units", units);
      state.put("battles", fought[0]);
      state.put("lost_value", fought[1]);
      players.put(player.getName(), state);
    }
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("round", round);
    entry.put("complete", complete);
    entry.put("players", players);
    rounds.add(entry);
    income.clear();
  }

  List<Object> entries() {
    return new ArrayList<>(rounds);
  }

  private int pus(final PlayerID player) {
    final Resource pus = data.getResourceList().getResource(Constants.PUS);
    return pus == null ? 0 : player.getResources().getQuantity(pus);
  }

  /** Per player: battles it fought in this round (as attacker or defender) and the unit value it lost. */
  private Map<String, int[]> battlesOf(final int round) {
    final Map<String, int[]> fought = new TreeMap<>();
    final BattleRecords records = data.getBattleRecordsList().getBattleRecordsMap().get(round);
    if (records == null) {
      return fought;
    }
    for (final BattleRecord record : BattleRecords.getAllRecords(records)) {
      try {
        count(fought, (PlayerID) field(record, "attacker"), (Integer) field(record, "attackerLostTUV"));
        count(fought, (PlayerID) field(record, "defender"), (Integer) field(record, "defenderLostTUV"));
      } catch (final ReflectiveOperationException e) {
        return fought; // 1.9's record fields are private; without them no battles are counted
      }
    }
    return fought;
  }

  private static void count(final Map<String, int[]> fought, final PlayerID player, final Integer lost) {
    if (player == null) {
      return;
    }
    final int[] entry = fought.computeIfAbsent(player.getName(), name -> new int[2]);
    entry[0]++;
    entry[1] += lost == null ? 0 : lost;
  }

  private static Object field(final Object target, final String name) throws ReflectiveOperationException {
    final Field field = BattleRecord.class.getDeclaredField(name);
    field.setAccessible(true);
    return field.get(target);
  }
}
