package tripleagen.harness.current;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import games.strategy.engine.chat.Chat;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.framework.AutoSaveFileUtils;
import games.strategy.engine.framework.GameRunner;
import games.strategy.engine.framework.IGame;
import games.strategy.engine.framework.LocalPlayers;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.framework.startup.WatcherThreadMessaging;
import games.strategy.engine.framework.startup.launcher.LaunchAction;
import games.strategy.engine.framework.startup.mc.IServerStartupRemote;
import games.strategy.engine.framework.startup.mc.ServerConnectionProps;
import games.strategy.engine.framework.startup.mc.ServerModel;
import games.strategy.engine.framework.startup.ui.PlayerTypes;
import games.strategy.engine.framework.startup.ui.panels.main.game.selector.GameSelectorModel;
import games.strategy.engine.player.Player;
import games.strategy.engine.random.IRandomSource;
import games.strategy.net.LocalNoOpMessenger;
import games.strategy.net.Messengers;
import games.strategy.net.websocket.ClientNetworkBridge;
import games.strategy.triplea.ResourceLoader;
import games.strategy.triplea.ai.fast.FastAi;
import games.strategy.triplea.ai.pro.ProAi;
import games.strategy.triplea.ai.weak.WeakAi;
import games.strategy.triplea.delegate.AbstractEndTurnDelegate;
import games.strategy.triplea.delegate.PoliticsDelegate;
import games.strategy.triplea.delegate.UserActionDelegate;
import games.strategy.triplea.settings.ClientSetting;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.triplea.ai.does.nothing.DoesNothingAi;
import org.triplea.game.chat.ChatModel;
import org.triplea.sound.HeadlessSoundChannel;
import tripleagen.harness.Checks;
import tripleagen.harness.EngineLog;
import tripleagen.harness.Json;
import tripleagen.harness.Outcome;
import tripleagen.harness.Script;
import tripleagen.harness.PlayOptions;
import tripleagen.harness.RoundStats;
import tripleagen.harness.StepTimes;

/**
 * A game of the 2.x engine with every player played by its AI (or scripted), driven one step at
 * a time so that it stops after the requested rounds (ServerGame.startGame would loop until the
 * game is won). Headless.
 */
final class PlayMode {
  private final PlayOptions options;
  private final EngineLog log;
  private final PrintStream reportOut;
  private final long startNanos = System.nanoTime();
  private final List<Double> roundSeconds = new ArrayList<>();
  private final StepTimes stepTimes = new StepTimes();
  private GameData data;
  private int startRound;
  private boolean started;
  private int stepsRun;
  private boolean aiRandomnessSeeded;
  private RoundStats roundStats;
  private GameFacts facts;
  private volatile boolean reported;
  private Thread watchdog; // stopped once the report is written: a serving JVM plays on
  private PlayerMessages messages;
  private final Map<String, Object> client = new LinkedHashMap<>();
  private final Script.Notes scriptNotes = new Script.Notes(); // what scripted players could not do

  PlayMode(final PlayOptions options, final EngineLog log, final PrintStream reportOut) {
    this.options = options;
    this.log = log;
    this.reportOut = reportOut;
  }

  /** Plays the game and writes the report; returns only after the report is written. */
  void run() {
    LogHook.install(log); // 2.x reports exceptions through logback, not printStackTrace
    startWatchdog();
    final Checks.Parsed<GameData> parsed = CheckMode.parse(options.path);
    if (parsed.data == null) {
      final Map<String, Object> refused = baseReport();
      refused.put("ok", false);
      refused.put("error", parsed.error);
      writeReport(refused);
      watchdog.interrupt();
      return;
    }
    data = parsed.data;
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
    if (options.inClient()) {
      throw new IllegalArgumentException("the 2.x harness plays headless only (no --screenshot)");
    }
    // Headless: a victory ends the game instead of asking the host in a dialog whether to play on.
    System.setProperty(GameRunner.TRIPLEA_HEADLESS, "true");
    // The AIs pause after each move and combat step so that a human can follow them; nobody
    // watches here. The settings live in the scratch user.home's preferences.
    ClientSetting.initialize();
    ClientSetting.aiMovePauseDuration.setValue(0);
    ClientSetting.aiCombatStepPauseDuration.setValue(0);
    moveToStart();
    final Set<Player> players = new HashSet<>();
    for (final GamePlayer player : data.getPlayerList().getPlayers()) {
      players.add(newPlayer(player.getName()));
    }
    final Launch launch = new Launch();
    final ServerGame game = new ServerGame(data, players, new HashMap<>(), new Messengers(new LocalNoOpMessenger()),
        ClientNetworkBridge.NO_OP_SENDER, launch);
    game.setDelegateAutosavesEnabled(false);
    if (options.seed != null) {
      game.setRandomSource(new SeededDice(options.seed));
      aiRandomnessSeeded = seedJdkRandomness(options.seed);
    }
    messages = new PlayerMessages(data);
    launch.display = messages;
    data.getGameLoader().startGame(game, players, launch, null);

    // What ServerGame.startGame does, one step at a time.
    game.setUpGameForRunningSteps();
    final GameSequence sequence = data.getSequence();
    startRound = sequence.getRound();
    facts = new GameFacts(data);
    roundStats = options.roundStats ? new RoundStats(facts) : null;
    started = true;
    long roundStart = System.nanoTime();
    while (sequence.getRound() < startRound + options.rounds) {
      if (reachedUntilStep(sequence)) {
        return "until step";
      }
      // After a victory the engine stops its step loop (isGameSequenceRunning); so does this one.
      if (game.isGameOver() || !game.isGameSequenceRunning()) {
        return "game over";
      }
      final int round = sequence.getRound();
      final GameStep step = sequence.getStep();
      log.setContext(round, step.getName());
      final List<String> scripted = scriptedActionsOf(step);
      if (roundStats != null) {
        roundStats.beforeStep(endTurnPlayer(step));
      }
      final long stepStart = System.nanoTime();
      try {
        game.runNextStep();
      } catch (final RuntimeException e) {
        log.record("fatal", unwrap(e));
        return "exception";
      }
      if (roundStats != null) {
        roundStats.afterStep();
      }
      if (!scripted.isEmpty() && !scriptNotes.wasVisited(round, step.getName())) {
        // the engine skipped the step without asking the player: it offered none of the actions
        for (final String action : scripted) {
          scriptNotes.notOffered(player(step), action, round, step.getName());
        }
      }
      stepsRun++;
      stepTimes.add(round, step.getName(), player(step), (System.nanoTime() - stepStart) / 1e9);
      if (sequence.getRound() != round) {
        final long now = System.nanoTime();
        roundSeconds.add((now - roundStart) / 1e9);
        roundStart = now;
        if (roundStats != null) {
          roundStats.endRound(round, true);
        }
      }
    }
    return game.isGameOver() || !game.isGameSequenceRunning() ? "game over"
        : reachedUntilStep(sequence) ? "until step" : "rounds";
  }

  /** The player for name: the AI asked for, or a ScriptedPlayer for a scripted or idle one. */
  private Player newPlayer(final String name) {
    final Script script = options.scripts.get(name);
    final String chosen = options.playerAi.getOrDefault(name, options.ai);
    if (script != null || "idle".equals(chosen)) {
      return new ScriptedPlayer(name, script == null ? new Script() : script, scriptNotes, "idle".equals(chosen));
    }
    switch (chosen) {
      case "fast":
        return new FastAi(name, PlayerTypes.FAST_AI.getLabel());
      case "hard":
        return new ProAi(name, PlayerTypes.PRO_AI.getLabel());
      case "none":
        return new DoesNothingAi(name, PlayerTypes.DOES_NOTHING_PLAYER_LABEL);
      default:
        return new WeakAi(name, PlayerTypes.WEAK_AI.getLabel());
    }
  }

  /**
   * What the engine asks of the program that launches a game; only startGame matters for a game
   * played in this process: it gets the map's resources (the map folder when given, else the
   * engine's assets only), our display and a silent sound channel.
   */
  private final class Launch implements LaunchAction {
    PlayerMessages display;

    @Override
    public void startGame(final LocalPlayers localPlayers, final IGame game, final Set<Player> players,
        final Chat chat) {
      game.setResourceLoader(new ResourceLoader(
          options.mapDir == null ? List.of() : List.of(contentRoot(Path.of(options.mapDir).toAbsolutePath()))));
      game.setDisplay(display);
      game.setSoundChannel(new HeadlessSoundChannel());
    }

    @Override
    public boolean promptGameStop(final String status, final String title, final Path mapLocation) {
      return true; // a victory: the step loop stops, as a headless host's does
    }

    @Override
    public void handleGameInterruption(final GameSelectorModel selector, final ServerModel server) {}

    @Override
    public void onGameInterrupt() {}

    @Override
    public void onEnd(final String message) {}

    @Override
    public Collection<PlayerTypes.Type> getPlayerTypes() {
      return PlayerTypes.getBuiltInPlayerTypes();
    }

    @Override
    public Path getAutoSaveFile() {
      return Path.of(System.getProperty("java.io.tmpdir"), "autosave.tsvg");
    }

    @Override
    public void onLaunch(final ServerGame serverGame) {}

    @Override
    public AutoSaveFileUtils getAutoSaveFileUtils() {
      return new AutoSaveFileUtils();
    }

    @Override
    public ChatModel createChatModel(final String chatName, final Messengers messengers,
        final ClientNetworkBridge bridge) {
      return null;
    }

    @Override
    public boolean shouldMinimizeExpensiveAiUse() {
      return false;
    }

    @Override
    public WatcherThreadMessaging createThreadMessaging() {
      return new WatcherThreadMessaging.HeadlessWatcherThreadMessaging();
    }

    @Override
    public Optional<ServerConnectionProps> getFallbackConnection(final Runnable cancelAction) {
      return Optional.empty();
    }

    @Override
    public void handleError(final String error) {
      log.recordMessage("launch", error);
    }

    @Override
    public IServerStartupRemote getStartupRemote(final IServerStartupRemote.ServerModelView view) {
      return null;
    }

    @Override
    public PlayerTypes.Type getDefaultLocalPlayerType() {
      return PlayerTypes.WEAK_AI;
    }
  }

  /**
   * Where 2.x reads a map's files (notifications.properties, images ...) from: as its installed-map
   * listing finds it, the folder of the polygons.txt closest to the top (3 levels at most); without
   * one (a mod's texts only), the map/ folder beside the games, else the folder given.
   */
  private static Path contentRoot(final Path folder) {
    try (Stream<Path> found = Files.walk(folder, 3)) {
      final Optional<Path> polygons = found.filter(path -> path.getFileName().toString().equals("polygons.txt"))
          .min(Comparator.comparingInt(Path::getNameCount));
      if (polygons.isPresent()) {
        return polygons.get().getParent();
      }
    } catch (final IOException | UncheckedIOException e) {
      // an unreadable folder: the engine reports what it then cannot find
    }
    final Path map = folder.resolve("map");
    return Files.isDirectory(map) ? map : folder;
  }

  /** The actions a scripted player attempts in this step (a politics or user-actions step of its own). */
  private List<String> scriptedActionsOf(final GameStep step) {
    final Script script = options.scripts.get(player(step));
    if (script != null && step.getDelegate() instanceof PoliticsDelegate) {
      return script.politicalActions;
    }
    if (script != null && step.getDelegate() instanceof UserActionDelegate) {
      return script.userActions;
    }
    return List.of();
  }

  /** The player of an end-turn step (it collects income), else null. */
  private static String endTurnPlayer(final GameStep step) {
    return step.getDelegate() instanceof AbstractEndTurnDelegate && step.getPlayerId() != null
        ? step.getPlayerId().getName() : null;
  }

  private static String player(final GameStep step) {
    return step.getPlayerId() == null ? "" : step.getPlayerId().getName();
  }

  /**
   * A scenario may start in a later round or at a later step of the first round. The 2.x
   * sequence has no setter for either that does not also look for a player, so its two fields are set before the game
   * object reads them (the history's first round node is made from them).
   */
  private void moveToStart() throws ReflectiveOperationException {
    final GameSequence sequence = data.getSequence();
    if (options.startRound != null) {
      final Field round = GameSequence.class.getDeclaredField("round");
      round.setAccessible(true);
      round.setInt(sequence, options.startRound);
    }
    if (options.startStep != null) {
      final int index = stepIndex(sequence, options.startStep);
      if (index < 0) {
        throw new IllegalArgumentException("no step named " + options.startStep);
      }
      final Field current = GameSequence.class.getDeclaredField("currentIndex");
      current.setAccessible(true);
      current.setInt(sequence, index);
    }
  }

  private static int stepIndex(final GameSequence sequence, final String name) {
    for (int i = 0; i < sequence.size(); i++) {
      if (sequence.getStep(i).getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private boolean reachedUntilStep(final GameSequence sequence) {
    if (options.untilStep == null || !options.untilStep.equals(sequence.getStep().getName())) {
      return false;
    }
    return options.untilRound == null || options.untilRound == sequence.getRound();
  }

  /**
   * The AIs draw their own decisions from Math.random and Collections.shuffle; seeding those
   * too makes a seeded run repeatable. Needs --add-opens for java.lang and java.util.
   */
  static boolean seedJdkRandomness(final long seed) {
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
    final GameSequence sequence = data.getSequence();
    final Map<String, Object> report = baseReport();
    report.put("ok", true);
    report.put("game", data.getGameName());
    report.put("stopped_by", stoppedBy);
    report.put("start_round", startRound);
    report.put("rounds_completed", started ? sequence.getRound() - startRound : 0);
    report.put("steps_run", stepsRun);
    report.put("last_step", sequence.getStep() == null ? null : sequence.getStep().getName());
    report.put("ai_randomness_seeded", aiRandomnessSeeded);
    report.put("round_seconds", new ArrayList<>(roundSeconds));
    report.put("slowest_steps", stepTimes.slowest());
    report.put("total_seconds", (System.nanoTime() - startNanos) / 1e9);
    report.put("exceptions", log.entries());
    report.put("console_warnings", log.consoleWarnings());
    report.put("missing_images", log.missingImages());
    report.put("messages", messages == null ? new ArrayList<>() : messages.log.entries());
    report.put("script_notes", scriptNotes.snapshot());
    if (options.inClient()) {
      report.put("client", new LinkedHashMap<>(client));
    }
    Outcome.putEndState(report, facts == null ? new GameFacts(data) : facts, options.history);
    if (roundStats != null) {
      if (started && !"rounds".equals(stoppedBy)) {
        roundStats.endRound(sequence.getRound(), false); // where a victory or a failure stopped the round
      }
      report.put("round_stats", roundStats.entries());
    }
    return report;
  }

  /** Dice from a seeded generator, so that a run can be repeated. */
  private static final class SeededDice implements IRandomSource {
    private final Random random;

    SeededDice(final long seed) {
      random = new Random(seed);
    }

    @Override
    public synchronized int getRandom(final int max, final String annotation) {
      return random.nextInt(max);
    }

    @Override
    public synchronized int[] getRandom(final int max, final int count, final String annotation) {
      if (count <= 0) {
        throw new IllegalArgumentException("count must be > 0, annotation:" + annotation);
      }
      final int[] numbers = new int[count];
      for (int i = 0; i < count; i++) {
        numbers[i] = random.nextInt(max);
      }
      return numbers;
    }
  }
}
