package tripleagen.harness.current;

import tripleagen.harness.*;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.TerritoryEffect;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.triplea.delegate.TerritoryEffectHelper;
import games.strategy.triplea.delegate.battle.BattleResults;
import games.strategy.triplea.odds.calculator.AggregateResults;
import games.strategy.triplea.settings.ClientSetting;

/**
 * The 2.x engine's own battle calculator on battles of one game (triplea-gen odds --engine current),
 * with the same arguments and report as the 1.9 harness's OddsMode:
 * <pre>
 *   Harness odds GAME.xml SEED RUNS BATTLE...
 *   BATTLE = ATTACKER|DEFENDER|TERRITORY|UNIT=N,UNIT=N|UNIT=N,...   (attacking units | defending units)
 * </pre>
 * 2.x's calculator (odds.calculator.BattleCalculator, package-private; the public
 * ConcurrentBattleCalculator splits the runs over threads, whose dice would come in any order) is
 * called single-threaded through reflection. Its dice: each run's DummyDelegateBridge makes a new
 * PlainRandomSource, whose SplittableRandom takes its seed from SplittableRandom's class-wide seed
 * generator (defaultGen); resetting that generator to our seed before every battle makes the dice
 * of every run follow from the seed. Math.random and Collections.shuffle are seeded as in play mode.
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
    ClientSetting.initialize(); // the battle code reads client settings, as in play mode
    final long seed = Long.parseLong(args.get(1));
    final int runs = Integer.parseInt(args.get(2));
    final List<Object> battles = new ArrayList<>();
    for (final String battle : args.subList(3, args.size())) {
      battles.add(calculate(parsed.data, battle, seed, runs));
    }
    report.put("ok", true);
    report.put("battles", battles);
    return report;
  }

  private static Map<String, Object> calculate(final GameData data, final String battle, final long seed,
      final int runs) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("battle", battle);
    final String[] parts = battle.split("\\|", -1);
    if (parts.length != 5) {
      entry.put("error", "a battle is ATTACKER|DEFENDER|TERRITORY|UNITS|UNITS");
      return entry;
    }
    final GamePlayer attacker = data.getPlayerList().getPlayerId(parts[0]);
    final GamePlayer defender = data.getPlayerList().getPlayerId(parts[1]);
    final Territory territory = data.getMap().getTerritoryOrNull(parts[2]);
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
    final AggregateResults results;
    try {
      final Class<?> type = Class.forName("games.strategy.triplea.odds.calculator.BattleCalculator");
      final Constructor<?> make = type.getDeclaredConstructor(GameData.class);
      make.setAccessible(true);
      final Object calculator = make.newInstance(data); // works on its own copy of the game
      final Method calculate = type.getMethod("calculate", GamePlayer.class, GamePlayer.class, Territory.class,
          Collection.class, Collection.class, Collection.class, Collection.class, boolean.class, int.class);
      calculate.setAccessible(true);
      // after the copy (which may draw seeds of its own): every battle alike, whatever came before it
      entry.put("dice_seeded", seedDice(seed));
      PlayMode.seedJdkRandomness(seed);
      final Collection<TerritoryEffect> effects = TerritoryEffectHelper.getEffects(territory);
      results = (AggregateResults) calculate.invoke(calculator, attacker, defender, territory, attacking, defending,
          new ArrayList<Unit>(), effects, false, runs);
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
    entry.put("rounds", all.isEmpty() ? 0 : results.getAverageBattleRoundsFought());
    entry.put("attackers_left", attackersLeft);
    entry.put("defenders_left", defendersLeft);
    return entry;
  }

  /**
   * Resets SplittableRandom's class-wide seed generator, from which every `new SplittableRandom()`
   * (so every PlainRandomSource the calculator makes) takes its seed. Needs --add-opens java.util.
   * False where this JDK keeps it elsewhere: the figures are then not repeatable.
   */
  private static boolean seedDice(final long seed) {
    try {
      final Field generator = java.util.SplittableRandom.class.getDeclaredField("defaultGen");
      generator.setAccessible(true);
      ((AtomicLong) generator.get(null)).set(seed);
      return true;
    } catch (final ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  private static void count(final Map<String, Double> left, final Collection<Unit> units, final int runs) {
    for (final Unit unit : units) {
      left.merge(unit.getType().getName(), 1.0 / runs, Double::sum);
    }
  }

  private static List<Unit> units(final GameData data, final String list, final GamePlayer owner) {
    final List<Unit> units = new ArrayList<>();
    for (final String item : list.split(",")) {
      if (item.isEmpty()) {
        continue;
      }
      final String[] pair = item.split("=", 2);
      final UnitType type = data.getUnitTypeList().getUnitType(pair[0]).orElse(null);
      if (type == null || pair.length != 2) {
        throw new IllegalArgumentException("no unit type " + pair[0]);
      }
      units.addAll(type.create(Integer.parseInt(pair[1]), owner));
    }
    return units;
  }
}
