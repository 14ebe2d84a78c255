package tripleagen.harness.v19;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.random.PlainRandomSource;
import games.strategy.triplea.delegate.TerritoryEffectHelper;
import games.strategy.triplea.oddsCalculator.ta.AggregateResults;
import games.strategy.triplea.oddsCalculator.ta.BattleResults;
import tripleagen.harness.Odds;
import tripleagen.harness.Checks;

/**
 * 1.9's battle calculator for Odds. Its dice come from our seeded PlainRandomSource (reseeded
 * before every battle).
 */
final class OddsMode implements Odds.Calculator<PlayerID, Territory, Unit> {
  private final GameData data;

  private OddsMode(final GameData data) {
    this.data = data;
  }

  static Map<String, Object> run(final List<String> args) {
    Odds.checkArguments(args);
    final Checks.Parsed<GameData> parsed = CheckMode.parse(args.get(0));
    return parsed.data == null ? Odds.refused(parsed.error) : Odds.run(args, new OddsMode(parsed.data));
  }

  @Override
  public PlayerID player(final String name) {
    return data.getPlayerList().getPlayerId(name);
  }

  @Override
  public Territory territory(final String name) {
    return data.getMap().getTerritory(name);
  }

  @Override
  public boolean hasUnitType(final String type) {
    return data.getUnitTypeList().getUnitType(type) != null;
  }

  @Override
  public List<Unit> units(final String type, final int count, final PlayerID owner) {
    return data.getUnitTypeList().getUnitType(type).create(count, owner);
  }

  @Override
  public Odds.Figures calculate(final Map<String, Object> entry, final PlayerID attacker, final PlayerID defender,
      final Territory territory, final List<Unit> attacking, final List<Unit> defending, final long seed,
      final int runs) {
    PlainRandomSource.reseed(seed); // every battle alike, whatever the battles before it
    // 1.9's single-threaded calculator is package-private (the public one splits the runs over
    // threads, whose dice sources would then be made in any order): called through reflection.
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
      final Object calculator = make.newInstance(data, true);
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
      return null;
    }
    final Odds.Figures figures = new Odds.Figures();
    for (final BattleResults result : results.getResults()) {
      figures.runs.add(new Odds.Run(result.attackerWon(), result.defenderWon(),
          types(result.getRemainingAttackingUnits()), types(result.getRemainingDefendingUnits())));
    }
    figures.rounds = results.getAverageBattleRoundsFought();
    return figures;
  }

  private static List<String> types(final Collection<Unit> units) {
    final List<String> types = new ArrayList<>();
    units.forEach(unit -> types.add(unit.getType().getName()));
    return types;
  }
}
