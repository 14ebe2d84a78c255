package tripleagen.harness.v19;

import tripleagen.harness.*;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.random.PlainRandomSource;
import games.strategy.triplea.delegate.TerritoryEffectHelper;
import games.strategy.triplea.oddsCalculator.ta.AggregateResults;
import games.strategy.triplea.oddsCalculator.ta.BattleResults;

/**
 * The engine's own battle calculator on battles of one game (triplea-gen odds):
 * <pre>
 *   Harness odds GAME.xml SEED RUNS BATTLE...
 *   BATTLE = ATTACKER|DEFENDER|TERRITORY|UNIT=N,UNIT=N|UNIT=N,...   (attacking units | defending units)
 * </pre>
 * Per battle: how often each side wins, the draws, the rounds fought and the units each side has
 * left on average, by type. Its dice come from our seeded PlainRandomSource: the same seed gives
 * the same figures.
 */
final class OddsMode {
  private OddsMode() {}

  static Map<String, Object> run(final List<String> args) {
    final Map<String, Object> report = new LinkedHashMap<>();
    if (args.size() < 3) {
      throw new IllegalArgumentException("odds needs GAME.xml SEED RUNS BATTLE...");
    }
    final CheckMode.Parsed parsed = CheckMode.parse(args.get(0));
    if (parsed.data == null) {
      report.put("ok", false);
      report.put("error", parsed.error);
      return report;
    }
    final long seed = Long.parseLong(args.get(1));
    final int runs = Integer.parseInt(args.get(2));
    final List<Object> battles = new ArrayList<>();
    for (final String battle : args.subList(3, args.size())) {
      PlainRandomSource.reseed(seed); // every battle alike, whatever the battles before it
      battles.add(calculate(parsed.data, battle, runs));
    }
    report.put("ok", true);
    report.put("battles", battles);
    return report;
  }

  private static Map<String, Object> calculate(final GameData data, final String battle, final int runs) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("battle", battle);
    final String[] parts = battle.split("\\|", -1);
    if (parts.length != 5) {
      entry.put("error", "a battle is ATTACKER|DEFENDER|TERRITORY|UNITS|UNITS");
      return entry;
    }
    final PlayerID attacker = data.getPlayerList().getPlayerId(parts[0]);
    final PlayerID defender = data.getPlayerList().getPlayerId(parts[1]);
    final Territory territory = data.getMap().getTerritory(parts[2]);
    if (attacker == null || defender == null || territory == null) {
      entry.put("error", attacker == null ? "no player " + parts[0] : defender == null ? "no player " + parts[1]
          : "no territory " + parts[2]);
      return entry;
    }
    final List<Unit> attacking;
    final List<Unit> defending;
    try {
      attacking = units(data, parts[3], attacker);
      defending = units(data, parts[4], defender);
    } catch (final IllegalArgumentException e) {
      entry.put("error", e.getMessage());
      return entry;
    }
    // 1.9's single-threaded calculator is package-private (the public one splits the runs over
    // threads, whose dice sources would then be made in any order): called through reflection.
    final Object calculator;
    final AggregateResults results;
    try {
      final Class<?> type = Class.forName("games.strategy.triplea.oddsCalculator.ta.OddsCalculator");
      // The (data, alreadyCloned) constructor: the public one copies the game by serialization,
      // which fails on Global 1940 on this JVM (a HashSet of named objects read back before their
      // names: NullPointerException in DefaultNamed.equals). The calculator clears the battle's
      // territory before each battle and undoes every run's changes, and the harness parsed this
      // game for the calculator alone, so it may work on it directly.
      final Constructor<?> make = type.getDeclaredConstructor(GameData.class, boolean.class);
      make.setAccessible(true);
      calculator = make.newInstance(data, true);
      final Method calculate = type.getDeclaredMethod("setCalculateDataAndCalculate", PlayerID.class, PlayerID.class,
          Territory.class, Collection.class, Collection.class, Collection.class, Collection.class, int.class);
      calculate.setAccessible(true);
      results = (AggregateResults) calculate.invoke(calculator, attacker, defender, territory, attacking, defending,
          new ArrayList<Unit>(), TerritoryEffectHelper.getEffects(territory), runs);
      final Method shutdown = type.getDeclaredMethod("shutdown");
      shutdown.setAccessible(true);
      shutdown.invoke(calculator);
    } catch (final ReflectiveOperationException e) {
      entry.put("error", "the engine's battle calculator failed: " + (e.getCause() == null ? e : e.getCause()));
      return entry;
    }
    int attackerWins = 0;
    int defenderWins = 0;
    final Map<String, Double> attackersLeft = new TreeMap<>();
    final Map<String, Double> defendersLeft = new TreeMap<>();
    final List<BattleResults> all = results.getResults();
    for (final BattleResults result : all) {
      attackerWins += result.attackerWon() ? 1 : 0;
      defenderWins += result.defenderWon() ? 1 : 0;
      count(attackersLeft, result.getRemainingAttackingUnits(), all.size());
      count(defendersLeft, result.getRemainingDefendingUnits(), all.size());
    }
    entry.put("runs", all.size());
    entry.put("attacker_win", all.isEmpty() ? 0 : (double) attackerWins / all.size());
    entry.put("defender_win", all.isEmpty() ? 0 : (double) defenderWins / all.size());
    entry.put("draw", all.isEmpty() ? 0 : (double) (all.size() - attackerWins - defenderWins) / all.size());
    entry.put("rounds", results.getAverageBattleRoundsFought());
    entry.put("attackers_left", attackersLeft);
    entry.put("defenders_left", defendersLeft);
    return entry;
  }

  private static void count(final Map<String, Double> left, final Collection<Unit> units, final int runs) {
    for (final Unit unit : units) {
      left.merge(unit.getType().getName(), 1.0 / runs, Double::sum);
    }
  }

  private static List<Unit> units(final GameData data, final String list, final PlayerID owner) {
    final List<Unit> units = new ArrayList<>();
    for (final String item : list.split(",")) {
      if (item.isEmpty()) {
        continue;
      }
      final String[] pair = item.split("=", 2);
      final UnitType type = data.getUnitTypeList().getUnitType(pair[0]);
      if (type == null || pair.length != 2) {
        throw new IllegalArgumentException("no unit type " + pair[0]);
      }
      units.addAll(type.create(Integer.parseInt(pair[1]), owner));
    }
    return units;
  }
}
