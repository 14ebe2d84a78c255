package tripleagen.harness.current;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import games.strategy.engine.ClientFileSystemHelper;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.gameparser.GameParser;
import games.strategy.engine.framework.AbstractGame;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.framework.startup.mc.HeadedLaunchAction;
import games.strategy.engine.framework.startup.ui.PlayerTypes;
import games.strategy.engine.player.Player;
import games.strategy.net.LocalNoOpMessenger;
import games.strategy.net.Messengers;
import games.strategy.net.websocket.ClientNetworkBridge;
import games.strategy.triplea.settings.ClientSetting;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.LoggerFactory;
import org.triplea.debug.ErrorMessage;
import org.triplea.game.client.HeadedGameRunner;
import tripleagen.harness.Harness;
import tripleagen.harness.Json;
import tripleagen.harness.Windows;
import tripleagen.harness.alike.SeededDice;

/**
 * `triplea-gen engine gui --engine current`: a game in the TripleA 2.x desktop client as a
 * player meets it. The map folder is installed in the scratch user.home's downloadedMaps, the
 * game opens in the client's game window (TripleAFrame, through the headed launch action, as
 * the client's own "Play" does), the easy AI plays every player for N rounds, one step at a
 * time, and the screen is photographed. Everything the client logs at ERROR (it logs uncaught
 * exceptions there too) is an exception of the report; what it draws as a placeholder (a unit
 * without an image, a resource without an icon) is read from its image factories afterwards.
 *
 * <p>Arguments: GAME --map-dir DIR --screenshot PNG [--rounds N] [--ai easy|fast]
 * [--timeout SEC] [--seed S] [--centre TERRITORY]. Prints one JSON report on stdout; the
 * client's own console output goes to stderr. In the harness's package: it shares Json and
 * PlayerMessages with the 2.x harness.
 */
public final class ClientGui {
  private static final int STACK_FRAMES_KEPT = 6;

  private final Map<String, String> options;
  private final PrintStream reportOut;
  private final long startNanos = System.nanoTime();
  private final List<Map<String, Object>> exceptions = new ArrayList<>();
  private final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
  // What the client logged at WARN: its log appender shows each in an error window (Slf4jLogMessageUploader).
  private final Map<String, Map<String, Object>> warningsShown = new LinkedHashMap<>();
  private final List<String> gameStops = new ArrayList<>();
  private final Map<String, Object> client = new LinkedHashMap<>();
  private volatile int round;
  private volatile String step = "";
  private volatile boolean reported;
  private GameData data;
  private int startRound;
  private boolean started;
  private ClientFrame frame;
  private PlayerMessages messages;

  private ClientGui(final Map<String, String> options, final PrintStream reportOut) {
    this.options = options;
    this.reportOut = reportOut;
  }

  public static void main(final String[] args) {
    Harness.watchParent(); // halts when triplea-gen is gone (its stdin pipe ends), as the 1.9 client does
    // The client's console log goes to System.out; the report must be the only thing there.
    final PrintStream reportOut = System.out;
    System.setOut(System.err);
    final ClientGui gui = new ClientGui(parse(args), reportOut);
    gui.run();
    Runtime.getRuntime().halt(0); // the client's own threads would keep the JVM alive
  }

  private static Map<String, String> parse(final String[] args) {
    final Map<String, String> options = new HashMap<>();
    options.put("rounds", "1");
    options.put("ai", "easy");
    options.put("timeout", "600");
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("--") && i + 1 < args.length) {
        options.put(args[i].substring(2), args[++i]);
      } else {
        options.put("game", args[i]);
      }
    }
    return options;
  }

  private void run() {
    startWatchdog();
    captureLog();
    String stoppedBy;
    try {
      HeadedGameRunner.initializeClientSettingAndLogging();
      // Nobody watches the AIs: no pause after their moves; no sound device under Xvfb.
      ClientSetting.aiMovePauseDuration.setValue(0);
      ClientSetting.aiCombatStepPauseDuration.setValue(0);
      ClientSetting.soundEnabled.setValue(false);
      HeadedGameRunner.initializeLookAndFeel();
      javax.swing.SwingUtilities.invokeAndWait(ErrorMessage::initialize); // error windows as players get them
      installMapFolder();
      data = GameParser.parse(Path.of(options.get("game")), false).orElse(null);
      if (data == null) {
        final Map<String, Object> refused = baseReport();
        refused.put("ok", false);
        refused.put("error", firstErrorMessage());
        writeReport(refused);
        return;
      }
      stoppedBy = play();
    } catch (final Throwable e) {
      record("fatal", e);
      stoppedBy = "exception";
    }
    writeReport(fullReport(stoppedBy));
  }

  private String play() throws Exception {
    final PlayerTypes.Type type = "fast".equals(options.get("ai")) ? PlayerTypes.FAST_AI : PlayerTypes.WEAK_AI;
    final Map<String, PlayerTypes.Type> types = new LinkedHashMap<>();
    for (final GamePlayer player : data.getPlayerList().getPlayers()) {
      types.put(player.getName(), type);
    }
    final Set<Player> players = data.getGameLoader().newPlayers(types);
    final HeadedLaunchAction launch = new HeadedLaunchAction(null) {
      @Override
      public boolean promptGameStop(final String status, final String title, final Path mapLocation) {
        // The host would be asked whether to play on after a victory; the game stops here.
        gameStops.add(title + ": " + status);
        return true;
      }

      @Override
      public void onEnd(final String message) {
        gameStops.add(message);
      }
    };
    final ServerGame game = new ServerGame(data, players, new HashMap<>(),
        new Messengers(new LocalNoOpMessenger()), ClientNetworkBridge.NO_OP_SENDER, launch);
    game.setDelegateAutosavesEnabled(false);
    if (options.containsKey("seed")) {
      game.setRandomSource(new SeededDice(Long.parseLong(options.get("seed"))));
    }
    data.getGameLoader().startGame(game, players, launch, null); // opens the TripleAFrame
    // What the players are shown (notifications, victory and political messages): a second
    // subscriber of the display channel, beside the client's own display.
    messages = new PlayerMessages(data);
    game.getMessengers().registerChannelSubscriber(messages, AbstractGame.getDisplayChannel());
    frame = ClientFrame.find();
    client.put("windows", Windows.openWindows());
    if (frame == null) {
      return "no window";
    }
    client.put("frame_title", frame.title());
    frame.fitToScreen();

    game.setUpGameForRunningSteps();
    final GameSequence sequence = data.getSequence();
    startRound = sequence.getRound();
    started = true;
    final int rounds = Integer.parseInt(options.get("rounds"));
    while (sequence.getRound() < startRound + rounds) {
      if (game.isGameOver() || !game.isGameSequenceRunning()) {
        return finish("game over");
      }
      final GameStep current = sequence.getStep();
      round = sequence.getRound();
      step = current.getName();
      try {
        game.runNextStep();
      } catch (final Throwable e) {
        record("fatal", e);
        return finish("exception");
      }
    }
    return finish(game.isGameOver() || !game.isGameSequenceRunning() ? "game over" : "rounds");
  }

  private String finish(final String stoppedBy) throws Exception {
    final String centre = options.get("centre");
    if (centre != null) {
      client.put("centred_on", frame.centreOn(data.getMap().getTerritoryOrNull(centre)));
    }
    client.putAll(frame.photograph(new File(options.get("screenshot"))));
    client.put("windows", Windows.openWindows());
    return stoppedBy;
  }

  /**
   * 2.x finds a map by the map_name of the map.yml in each folder of downloadedMaps (under the
   * scratch user.home), and searches that folder for polygons.txt and game files without
   * following links. So the folder given is rebuilt there as real folders holding links to its
   * files: the player's folder is never copied or written to.
   */
  private void installMapFolder() throws Exception {
    final String given = options.get("map-dir");
    if (given == null) {
      return;
    }
    final Path target = Path.of(given).toAbsolutePath();
    final Path installed = ClientFileSystemHelper.getUserMapsFolder().resolve(target.getFileName().toString());
    if (!Files.exists(installed, LinkOption.NOFOLLOW_LINKS)) {
      mirror(target, installed);
    }
  }

  // safe-write: `to` is inside this run's private scratch user.home (the client's maps folder there)
  private static void mirror(final Path from, final Path to) throws Exception {
    Files.createDirectories(to); // safe-write: see above
    try (java.util.stream.Stream<Path> entries = Files.list(from)) {
      for (final Path entry : (Iterable<Path>) entries::iterator) {
        final Path copy = to.resolve(entry.getFileName().toString());
        if (Files.isDirectory(entry) && !Files.isSymbolicLink(entry)) {
          mirror(entry, copy);
        } else {
          Files.createSymbolicLink(copy, entry); // safe-write: a new link in the private scratch home
        }
      }
    }
  }

  // ------------------------------------------------------------ the client's log

  /**
   * Every event the client logs at ERROR is recorded, with its exception; each WARN once, with
   * where it first came: the client shows both to the player in its error window.
   */
  private void captureLog() {
    final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(final ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
          final IThrowableProxy proxy = event.getThrowableProxy();
          if (proxy instanceof ThrowableProxy) {
            record("logged", ((ThrowableProxy) proxy).getThrowable());
          } else {
            recordMessage("logged", event.getFormattedMessage());
          }
        } else if (event.getLevel() == Level.WARN) {
          final String message = event.getFormattedMessage().lines().findFirst().orElse("");
          synchronized (warningsShown) {
            warningsShown.computeIfAbsent(message, key -> entry("warning", "", key));
          }
        }
      }
    };
    appender.setContext(root.getLoggerContext());
    appender.setName("tripleagen");
    appender.start();
    root.addAppender(appender);
  }

  private synchronized void record(final String kind, final Throwable error) {
    if (!seen.add(error)) {
      return;
    }
    final Map<String, Object> entry = entry(kind, error.getClass().getName(), describeChain(error));
    final List<String> frames = new ArrayList<>();
    for (final StackTraceElement frame : error.getStackTrace()) {
      if (frames.size() == STACK_FRAMES_KEPT) {
        break;
      }
      frames.add(frame.toString());
    }
    entry.put("at", frames);
    exceptions.add(entry);
  }

  private synchronized void recordMessage(final String kind, final String message) {
    final Map<String, Object> entry = entry(kind, "", message);
    entry.put("at", new ArrayList<String>());
    exceptions.add(entry);
  }

  private Map<String, Object> entry(final String kind, final String type, final String message) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", kind);
    entry.put("type", type);
    entry.put("message", message);
    entry.put("round", round);
    entry.put("step", step);
    entry.put("engine_defect", null);
    return entry;
  }

  private static String describeChain(final Throwable error) {
    final StringBuilder text = new StringBuilder(String.valueOf(error.getMessage()));
    final Set<Throwable> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable cause = error.getCause(); cause != null && visited.add(cause); cause = cause.getCause()) {
      text.append(" | caused by ").append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage());
    }
    return text.toString();
  }

  private synchronized String firstErrorMessage() {
    return exceptions.isEmpty() ? "the game could not be parsed" : (String) exceptions.get(0).get("message");
  }

  // ------------------------------------------------------------ the report

  /** Stops a game that runs past its time limit, still reporting how far it got. */
  private void startWatchdog() {
    final Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep((long) (Double.parseDouble(options.get("timeout")) * 1000));
      } catch (final InterruptedException e) {
        return;
      }
      Map<String, Object> partial;
      try {
        partial = fullReport("time limit");
      } catch (final RuntimeException e) {
        partial = baseReport();
        partial.put("ok", true);
        partial.put("stopped_by", "time limit");
        partial.put("exceptions", new ArrayList<>(exceptions));
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
    report.put("path", options.get("game"));
    report.put("ai", options.get("ai"));
    report.put("map_dir", options.get("map-dir"));
    report.put("rounds_requested", Integer.parseInt(options.get("rounds")));
    return report;
  }

  private Map<String, Object> fullReport(final String stoppedBy) {
    final Map<String, Object> report = baseReport();
    report.put("ok", true);
    report.put("game", data.getGameName());
    report.put("stopped_by", stoppedBy);
    report.put("rounds_completed", started ? data.getSequence().getRound() - startRound : 0);
    report.put("total_seconds", (System.nanoTime() - startNanos) / 1e9);
    synchronized (this) {
      report.put("exceptions", new ArrayList<>(exceptions));
    }
    synchronized (warningsShown) {
      report.put("warnings_shown", new ArrayList<>(warningsShown.values()));
    }
    report.put("game_stops", new ArrayList<>(gameStops));
    final Map<String, List<String>> placeholders = frame == null ? Map.of() : frame.placeholders();
    report.put("missing_images", placeholders.getOrDefault("units", List.of()));
    report.put("placeholder_resources", placeholders.getOrDefault("resources", List.of()));
    report.put("messages", messages == null ? new ArrayList<>() : messages.log.entries());
    report.put("client", new LinkedHashMap<>(client));
    return report;
  }
}
