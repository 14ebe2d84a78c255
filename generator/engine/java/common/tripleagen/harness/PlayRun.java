package tripleagen.harness;

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A game played one step at a time so that it stops after the requested rounds (the engines' own
 * loops run until the game is won), with its watchdog and its report: the same in both engines.
 * Each engine's PlayMode extends it with the calls into its API (the abstract methods: load the
 * game, start it, read its sequence, run one step).
 */
public abstract class PlayRun {
  protected final PlayOptions options;
  protected final EngineLog log;
  private final PrintStream reportOut;
  private final long startNanos = System.nanoTime();
  private final List<Double> roundSeconds = new ArrayList<>();
  private final StepTimes stepTimes = new StepTimes();
  private int startRound;
  private boolean started;
  private int stepsRun;
  private RoundStats roundStats;
  private volatile boolean reported;
  private Thread watchdog; // stopped once the report is written: a serving JVM plays on
  /** The desktop client's side of the run (1.9 with --screenshot): windows, frame, photograph. */
  protected final Map<String, Object> client = new LinkedHashMap<>();
  /** What scripted players could not do. */
  protected final Script.Notes scriptNotes = new Script.Notes();

  protected PlayRun(final PlayOptions options, final EngineLog log, final PrintStream reportOut) {
    this.options = options;
    this.log = log;
    this.reportOut = reportOut;
  }

  /** Reads options.path: null when the engine loaded the game, else its reason for refusing it. */
  protected abstract String load();

  /** Everything before the first step (players, the game, seeds); null to play, else why the run stops. */
  protected abstract String start() throws Exception;

  protected abstract int round();

  /** The current step's name, or null where the sequence has none. */
  protected abstract String stepName();

  /** The current step's player, "" for none. */
  protected abstract String stepPlayer();

  /** The current step's player when it is an end-turn step (which collects income), else null. */
  protected abstract String endTurnPlayer();

  /** "politics" or "user actions" for such a step, else "". */
  protected abstract String stepKind();

  /** The game is won (the engine stopped its step loop). */
  protected abstract boolean over();

  /** Runs the current step; throws what stopped it. */
  protected abstract void runStep() throws Exception;

  /** After the last step (the 1.9 client's photograph). */
  protected void finish() throws Exception {}

  protected abstract String gameName();

  /** Whether the AIs' own randomness (and 1.9's unit ids) was made repeatable for the seed. */
  protected abstract boolean randomnessSeeded();

  protected abstract Facts facts();

  protected abstract List<Map<String, Object>> messages();

  /** Plays the game and writes the report; returns only after the report is written. */
  public final void run() {
    startWatchdog();
    final String refusal = load();
    if (refusal != null) {
      final Map<String, Object> refused = baseReport();
      refused.put("ok", false);
      refused.put("error", refusal);
      writeReport(refused);
      watchdog.interrupt();
      return;
    }
    String stoppedBy;
    try {
      stoppedBy = play();
    } catch (final Throwable e) {
      log.record("fatal", unwrap(e));
      stoppedBy = "exception";
    }
    writeReport(fullReport(stoppedBy));
    watchdog.interrupt();
  }

  private String play() throws Exception {
    final String stop = start();
    if (stop != null) {
      return stop;
    }
    startRound = round();
    started = true;
    roundStats = options.roundStats ? new RoundStats(facts()) : null;
    long roundStart = System.nanoTime();
    while (round() < startRound + options.rounds) {
      if (reachedUntilStep()) {
        return "until step";
      }
      // After a victory the engine stops its step loop (isGameSequenceRunning); so does this one.
      if (over()) {
        return "game over";
      }
      final int round = round();
      final String step = stepName();
      final String player = stepPlayer();
      log.setContext(round, step);
      final List<String> scripted = scriptedActions(player, stepKind());
      if (roundStats != null) {
        roundStats.beforeStep(endTurnPlayer());
      }
      final long stepStart = System.nanoTime();
      try {
        runStep();
      } catch (final Exception e) {
        log.record("fatal", unwrap(e));
        return "exception";
      }
      if (roundStats != null) {
        roundStats.afterStep();
      }
      if (!scripted.isEmpty() && !scriptNotes.wasVisited(round, step)) {
        // the engine skipped the step without asking the player: it offered none of the actions
        for (final String action : scripted) {
          scriptNotes.notOffered(player, action, round, step);
        }
      }
      stepsRun++;
      stepTimes.add(round, step, player, (System.nanoTime() - stepStart) / 1e9);
      if (round() != round) {
        final long now = System.nanoTime();
        roundSeconds.add((now - roundStart) / 1e9);
        roundStart = now;
        if (roundStats != null) {
          roundStats.endRound(round, true);
        }
      }
    }
    final String stoppedBy = over() ? "game over" : reachedUntilStep() ? "until step" : "rounds";
    finish();
    return stoppedBy;
  }

  /** The actions a scripted player attempts in a politics or user-actions step of its own. */
  private List<String> scriptedActions(final String player, final String kind) {
    final Script script = options.scripts.get(player);
    if (script != null && "politics".equals(kind)) {
      return script.politicalActions;
    }
    if (script != null && "user actions".equals(kind)) {
      return script.userActions;
    }
    return List.of();
  }

  private boolean reachedUntilStep() {
    if (options.untilStep == null || !options.untilStep.equals(stepName())) {
      return false;
    }
    return options.untilRound == null || options.untilRound == round();
  }

  /**
   * The AIs draw their own decisions from Math.random and Collections.shuffle; seeding those
   * too makes a seeded run repeatable. Needs --add-opens for java.lang and java.util.
   */
  public static boolean seedJdkRandomness(final long seed) {
    try {
      final Class<?> holder = Class.forName("java.lang.Math$RandomNumberGeneratorHolder");
      final Field mathRandom = holder.getDeclaredField("randomNumberGenerator");
      mathRandom.setAccessible(true);
      ((Random) mathRandom.get(null)).setSeed(seed);
      final Field shuffleRandom = Collections.class.getDeclaredField("r");
      shuffleRandom.setAccessible(true);
      if (shuffleRandom.get(null) == null) {
        shuffleRandom.set(null, new Random(seed));
      } else {
        ((Random) shuffleRandom.get(null)).setSeed(seed);
      }
      return true;
    } catch (final ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  private static Throwable unwrap(final Throwable error) {
    Throwable inner = error;
    while (inner instanceof InvocationTargetException && inner.getCause() != null) {
      inner = inner.getCause();
    }
    return inner;
  }

  /** Stops a game that runs past its time limit, still reporting how far it got. */
  private void startWatchdog() {
    watchdog = new Thread(() -> {
      try {
        Thread.sleep((long) (options.timeoutSeconds * 1000));
      } catch (final InterruptedException e) {
        return;
      }
      Map<String, Object> partial;
      try {
        partial = fullReport("time limit");
      } catch (final RuntimeException e) {
        // the game thread is still changing the data; a report without the end state will do
        partial = baseReport();
        partial.put("ok", true);
        partial.put("stopped_by", "time limit");
        partial.put("exceptions", log.entries());
        partial.put("missing_images", log.missingImages());
      }
      writeReport(partial);
      Runtime.getRuntime().halt(0);
    }, "tripleagen-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private synchronized void writeReport(final Map<String, Object> report) {
    if (reported) {
      return;
    }
    reported = true;
    reportOut.println(Json.write(report));
    reportOut.flush();
  }

  private Map<String, Object> baseReport() {
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("path", options.path);
    report.put("ai", options.ai);
    report.put("seed", options.seed);
    report.put("map_dir", options.mapDir);
    report.put("rounds_requested", options.rounds);
    report.put("time_limit_seconds", options.timeoutSeconds);
    return report;
  }

  private Map<String, Object> fullReport(final String stoppedBy) {
    final Map<String, Object> report = baseReport();
    report.put("ok", true);
    report.put("game", gameName());
    report.put("stopped_by", stoppedBy);
    report.put("start_round", startRound);
    report.put("rounds_completed", started ? round() - startRound : 0);
    report.put("steps_run", stepsRun);
    report.put("last_step", stepName());
    report.put("ai_randomness_seeded", randomnessSeeded());
    report.put("round_seconds", new ArrayList<>(roundSeconds));
    report.put("slowest_steps", stepTimes.slowest());
    report.put("total_seconds", (System.nanoTime() - startNanos) / 1e9);
    report.put("exceptions", log.entries());
    report.put("console_warnings", log.consoleWarnings());
    report.put("missing_images", log.missingImages());
    report.put("messages", messages());
    report.put("script_notes", scriptNotes.snapshot());
    if (options.inClient()) {
      report.put("client", new LinkedHashMap<>(client));
    }
    Outcome.putEndState(report, facts(), options.history);
    if (roundStats != null) {
      if (started && !"rounds".equals(stoppedBy)) {
        roundStats.endRound(round(), false); // where a victory or a failure stopped the round
      }
      report.put("round_stats", roundStats.entries());
    }
    return report;
  }
}
