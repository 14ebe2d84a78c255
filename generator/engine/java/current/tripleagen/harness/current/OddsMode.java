package tripleagen.harness.current;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.TerritoryEffect;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.delegate.TerritoryEffectHelper;
import games.strategy.triplea.delegate.battle.BattleResults;
import games.strategy.triplea.odds.calculator.AggregateResults;
import games.strategy.triplea.settings.ClientSetting;
import tripleagen.harness.Odds;
import tripleagen.harness.PlayRun;
import tripleagen.harness.Checks;

/**
 * 2.x's battle calculator for Odds (triplea-gen odds --engine current). 2.x's calculator
 * (odds.calculator.BattleCalculator, package-private; the public ConcurrentBattleCalculator splits
 * the runs over threads, whose dice would come in any order) is called single-threaded through
 * reflection. Its dice: each run's DummyDelegateBridge makes a new PlainRandomSource, whose
 * SplittableRandom takes its seed from SplittableRandom's class-wide seed generator (defaultGen);
 * resetting that generator to our seed before every battle makes the dice of every run follow from
 * the seed. Math.random and Collections.shuffle are seeded as in play mode.
 */
final class OddsMode implements Odds.Calculator<GamePlayer, Territory, Unit> {
  private final GameData data;

  private OddsMode(final GameData data) {
    this.data = data;
  }

  static Map<String, Object> run(final List<String> args) {
    Odds.checkArguments(args);
    final Checks.Parsed<GameData> parsed = CheckMode.parse(args.get(0));
    if (parsed.data == null) {
      return Odds.refused(parsed.error);
    }
    ClientSetting.initialize(); // the battle code reads client settings, as in play mode
    return Odds.run(args, new OddsMode(parsed.data));
  }

  @Override
  public GamePlayer player(final String name) {
    return data.getPlayerList().getPlayerId(name);
  }

  @Override
  public Territory territory(final String name) {
    return data.getMap().getTerritoryOrNull(name);
  }

  @Override
  public boolean hasUnitType(final String type) {
    return data.getUnitTypeList().getUnitType(type).isPresent();
  }

  @Override
  public List<Unit> units(final String type, final int count, final GamePlayer owner) {
    return new ArrayList<>(data.getUnitTypeList().getUnitType(type).orElseThrow().create(count, owner));
  }

  @Override
  public Odds.Figures calculate(final Map<String, Object> entry, final GamePlayer attacker, final GamePlayer defender,
      final Territory territory, final List<Unit> attacking, final List<Unit> defending, final long seed,
      final int runs) {
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
      PlayRun.seedJdkRandomness(seed);
      final Collection<TerritoryEffect> effects = TerritoryEffectHelper.getEffects(territory);
      results = (AggregateResults) calculate.invoke(calculator, attacker, defender, territory, attacking, defending,
          new ArrayList<Unit>(), effects, false, runs);
    } catch (final ReflectiveOperationException e) {
      entry.put("error", "the engine's battle calculator failed: " + (e.getCause() == null ? e : e.getCause()));
      return null;
    }
    final Odds.Figures figures = new Odds.Figures();
    final List<BattleResults> all = results.getResults();
    for (final BattleResults result : all) {
      figures.runs.add(new Odds.Run(result.attackerWon(), result.defenderWon(),
          types(result.getRemainingAttackingUnits()), types(result.getRemainingDefendingUnits())));
    }
    figures.rounds = all.isEmpty() ? 0 : results.getAverageBattleRoundsFought();
    return figures;
  }

  private static List<String> types(final Collection<Unit> units) {
    final List<String> types = new ArrayList<>();
    units.forEach(unit -> types.add(unit.getType().getName()));
    return types;
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
}
