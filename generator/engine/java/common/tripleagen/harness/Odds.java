package tripleagen.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's own battle calculator on battles of one game (triplea-gen odds), with the same
 * arguments and report in both engines; each engine's OddsMode is the Calculator that calls it:
 * <pre>
 *   Harness odds GAME.xml SEED RUNS BATTLE...
 *   BATTLE = ATTACKER|DEFENDER|TERRITORY|UNIT=N,UNIT=N|UNIT=N,...   (attacking units | defending units)
 * </pre>
 * Per battle: how often each side wins, the draws, the rounds fought and the units each side has
 * left on average, by type. The engine's dice are seeded: the same seed gives the same figures.
 */
public final class Odds {
  private Odds() {}

  /** An engine's calculator over one parsed game: P a player, T a territory, U a unit of that engine. */
  public interface Calculator<P, T, U> {
    P player(String name);

    T territory(String name);

    boolean hasUnitType(String type);

    /** count new units of a type the game has, for owner. */
    List<U> units(String type, int count, P owner);

    /**
     * The engine's figures for one battle, every battle from the same seed; on failure puts
     * "error" into entry (with anything of its own before it) and returns null.
     */
    Figures calculate(Map<String, Object> entry, P attacker, P defender, T territory, List<U> attacking,
        List<U> defending, long seed, int runs);
  }

  /** What one calculation gave: each run's result and the rounds fought on average. */
  public static final class Figures {
    public final List<Run> runs = new ArrayList<>();
    public double rounds;
  }

  /** One run: who won and the types of the units each side has left. */
  public static final class Run {
    final boolean attackerWon;
    final boolean defenderWon;
    final List<String> attackersLeft;
    final List<String> defendersLeft;

    public Run(final boolean attackerWon, final boolean defenderWon, final List<String> attackersLeft,
        final List<String> defendersLeft) {
      this.attackerWon = attackerWon;
      this.defenderWon = defenderWon;
      this.attackersLeft = attackersLeft;
      this.defendersLeft = defendersLeft;
    }
  }

  /** The arguments are there (GAME SEED RUNS BATTLE...); the engine parses the game after this. */
  public static void checkArguments(final List<String> args) {
    if (args.size() < 3) {
      throw new IllegalArgumentException("odds needs GAME.xml SEED RUNS BATTLE...");
    }
  }

  /** The report of a game the engine refused. */
  public static Map<String, Object> refused(final String error) {
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("ok", false);
    report.put("error", error);
    return report;
  }

  public static <P, T, U> Map<String, Object> run(final List<String> args, final Calculator<P, T, U> calculator) {
    final long seed = Long.parseLong(args.get(1));
    final int runs = Integer.parseInt(args.get(2));
    final List<Object> battles = new ArrayList<>();
    for (final String battle : args.subList(3, args.size())) {
      battles.add(battle(calculator, battle, seed, runs));
    }
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("ok", true);
    report.put("battles", battles);
    return report;
  }

  private static <P, T, U> Map<String, Object> battle(final Calculator<P, T, U> calculator, final String battle,
      final long seed, final int runs) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("battle", battle);
    final String[] parts = battle.split("\\|", -1);
    if (parts.length != 5) {
      entry.put("error", "a battle is ATTACKER|DEFENDER|TERRITORY|UNITS|UNITS");
      return entry;
    }
    final P attacker = calculator.player(parts[0]);
    final P defender = calculator.player(parts[1]);
    final T territory = calculator.territory(parts[2]);
    if (attacker == null || defender == null || territory == null) {
      entry.put("error", attacker == null ? "no player " + parts[0] : defender == null ? "no player " + parts[1]
          : "no territory " + parts[2]);
      return entry;
    }
    final List<U> attacking;
    final List<U> defending;
    try {
      attacking = units(calculator, parts[3], attacker);
      defending = units(calculator, parts[4], defender);
    } catch (final IllegalArgumentException e) {
      entry.put("error", e.getMessage());
      return entry;
    }
    final Figures figures = calculator.calculate(entry, attacker, defender, territory, attacking, defending, seed, runs);
    if (figures != null) {
      putFigures(entry, figures);
    }
    return entry;
  }

  private static void putFigures(final Map<String, Object> entry, final Figures figures) {
    int attackerWins = 0;
    int defenderWins = 0;
    final Map<String, Double> attackersLeft = new TreeMap<>();
    final Map<String, Double> defendersLeft = new TreeMap<>();
    final List<Run> all = figures.runs;
    for (final Run run : all) {
      attackerWins += run.attackerWon ? 1 : 0;
      defenderWins += run.defenderWon ? 1 : 0;
      count(attackersLeft, run.attackersLeft, all.size());
      count(defendersLeft, run.defendersLeft, all.size());
    }
    entry.put("runs", all.size());
    entry.put("attacker_win", all.isEmpty() ? 0 : (double) attackerWins / all.size());
    entry.put("defender_win", all.isEmpty() ? 0 : (double) defenderWins / all.size());
    entry.put("draw", all.isEmpty() ? 0 : (double) (all.size() - attackerWins - defenderWins) / all.size());
    entry.put("rounds", figures.rounds);
    entry.put("attackers_left", attackersLeft);
    entry.put("defenders_left", defendersLeft);
  }

  private static void count(final Map<String, Double> left, final List<String> types, final int runs) {
    for (final String type : types) {
      left.merge(type, 1.0 / runs, Double::sum);
    }
  }

  /** The units of UNIT=N,UNIT=N,... for owner. */
  private static <P, U> List<U> units(final Calculator<P, ?, U> calculator, final String list, final P owner) {
    final List<U> units = new ArrayList<>();
    for (final String item : list.split(",")) {
      if (item.isEmpty()) {
        continue;
      }
      final String[] pair = item.split("=", 2);
      // The type is looked up before the count is read: a battle's error names the first problem.
      if (pair.length != 2 || !calculator.hasUnitType(pair[0])) {
        throw new IllegalArgumentException("no unit type " + pair[0]);
      }
      units.addAll(calculator.units(pair[0], Integer.parseInt(pair[1]), owner));
    }
    return units;
  }
}
