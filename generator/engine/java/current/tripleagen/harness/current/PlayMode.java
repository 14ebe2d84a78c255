package tripleagen.harness.current;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
import tripleagen.harness.PlayRun;
import tripleagen.harness.Script;
import tripleagen.harness.PlayOptions;
import tripleagen.harness.alike.SeededDice;
import tripleagen.harness.alike.Sequences;

/**
 * A 2.x game with every player played by its AI (or scripted), for PlayRun. Headless.
 */
final class PlayMode extends PlayRun {
  private GameData data;
  private ServerGame game;
  private GameFacts facts;
  private boolean aiRandomnessSeeded;
  private PlayerMessages messages;

  PlayMode(final PlayOptions options, final EngineLog log, final PrintStream reportOut) {
    super(options, log, reportOut);
  }

  @Override
  protected String load() {
    LogHook.install(log); // 2.x reports exceptions through logback, not printStackTrace
    final Checks.Parsed<GameData> parsed = CheckMode.parse(options.path);
    data = parsed.data;
    facts = data == null ? null : new GameFacts(data);
    return parsed.data == null ? parsed.error : null;
  }

  @Override
  protected String start() throws Exception {
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
    game = new ServerGame(data, players, new HashMap<>(), new Messengers(new LocalNoOpMessenger()),
        ClientNetworkBridge.NO_OP_SENDER, launch);
    game.setDelegateAutosavesEnabled(false);
    if (options.seed != null) {
      game.setRandomSource(new SeededDice(options.seed));
      aiRandomnessSeeded = seedJdkRandomness(options.seed);
    }
    messages = new PlayerMessages(data);
    launch.display = messages;
    data.getGameLoader().startGame(game, players, launch, null);
    // What ServerGame.startGame does before its loop; its loop body is runStep.
    game.setUpGameForRunningSteps();
    return null;
  }

  @Override
  protected int round() {
    return data.getSequence().getRound();
  }

  @Override
  protected String stepName() {
    final GameStep step = data.getSequence().getStep();
    return step == null ? null : step.getName();
  }

  @Override
  protected String stepPlayer() {
    return player(data.getSequence().getStep());
  }

  @Override
  protected String endTurnPlayer() {
    return endTurnPlayer(data.getSequence().getStep());
  }

  @Override
  protected String stepKind() {
    final Object delegate = data.getSequence().getStep().getDelegate();
    return delegate instanceof PoliticsDelegate ? "politics" : delegate instanceof UserActionDelegate ? "user actions"
        : "";
  }

  @Override
  protected boolean over() {
    return game.isGameOver() || !game.isGameSequenceRunning();
  }

  @Override
  protected void runStep() {
    game.runNextStep();
  }

  @Override
  protected String gameName() {
    return data.getGameName();
  }

  @Override
  protected boolean randomnessSeeded() {
    return aiRandomnessSeeded;
  }

  @Override
  protected GameFacts facts() {
    return facts;
  }

  @Override
  protected List<Map<String, Object>> messages() {
    return messages == null ? new ArrayList<>() : messages.log.entries();
  }

  /** The player of an end-turn step (it collects income), else null. */
  private static String endTurnPlayer(final GameStep step) {
    return step.getDelegate() instanceof AbstractEndTurnDelegate && step.getPlayerId() != null
        ? step.getPlayerId().getName() : null;
  }

  private static String player(final GameStep step) {
    return step.getPlayerId() == null ? "" : step.getPlayerId().getName();
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
      final int index = Sequences.stepIndex(sequence, options.startStep);
      if (index < 0) {
        throw new IllegalArgumentException("no step named " + options.startStep);
      }
      final Field current = GameSequence.class.getDeclaredField("currentIndex");
      current.setAccessible(true);
      current.setInt(sequence, index);
    }
  }
}
