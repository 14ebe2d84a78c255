package tripleagen.harness.v19;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import games.strategy.engine.ClientFileSystemHelper;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.framework.GameRunner;
import games.strategy.engine.framework.IGameLoader;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.gamePlayer.IGamePlayer;
import games.strategy.net.HeadlessServerMessenger;
import games.strategy.net.Messengers;
import games.strategy.triplea.Constants;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.delegate.AbstractEndTurnDelegate;
import games.strategy.triplea.delegate.PoliticsDelegate;
import games.strategy.triplea.delegate.UserActionDelegate;
import games.strategy.triplea.settings.ClientSetting;
import tripleagen.harness.Checks;
import tripleagen.harness.EngineLog;
import tripleagen.harness.Reflection;
import tripleagen.harness.PlayRun;
import tripleagen.harness.Windows;
import tripleagen.harness.Script;
import tripleagen.harness.PlayOptions;
import tripleagen.harness.alike.SeededDice;
import tripleagen.harness.alike.Sequences;

/**
 * A 1.9 game with every player played by the engine's AI (or scripted), for PlayRun: headless by
 * default; with a screenshot file, in the desktop client's game window (needs a display),
 * photographed after the last step.
 */
final class PlayMode extends PlayRun {
  private static boolean idsRepeatable = true;
  private GameData data;
  private ServerGame game;
  private GameFacts facts;
  private boolean aiRandomnessSeeded;
  private PlayerMessages messages;
  private ClientWindow window;

  PlayMode(final PlayOptions options, final EngineLog log, final PrintStream reportOut) {
    super(options, log, reportOut);
  }

  @Override
  protected String load() {
    if (options.seed != null) {
      repeatableIds(); // before the game is read: its units get their ids there
    }
    final Checks.Parsed<GameData> parsed = CheckMode.parse(options.path);
    data = parsed.data;
    facts = data == null ? null : new GameFacts(data);
    return parsed.data == null ? parsed.error : null;
  }

  @Override
  protected String start() throws Exception {
    if (!options.inClient()) {
      // Headless mode makes a victory end the game instead of asking the host in a dialog
      // whether to play on (which would fail without a display), and keeps the sound silent.
      System.setProperty(GameRunner.TRIPLEA_HEADLESS, "true");
    }
    provideMapFolder();
    // The AIs sleep after each move so that a human can follow them (400 ms by default);
    // nobody watches here. The setting lives in the scratch user.home's preferences.
    ClientSetting.AI_PAUSE_DURATION.save(0);
    final IGameLoader loader = data.getGameLoader();
    final String playerType = playerTypeOf(options.ai);
    final Map<String, String> playerTypes = new LinkedHashMap<>();
    for (final PlayerID player : data.getPlayerList().getPlayers()) {
      final String chosen = options.playerAi.get(player.getName());
      playerTypes.put(player.getName(), chosen == null ? playerType : playerTypeOf(chosen));
    }
    moveToStart();
    final Set<IGamePlayer> players = withScriptedPlayers(loader.createPlayers(playerTypes));
    game = new ServerGame(data, players, new HashMap<>(), new Messengers(new HeadlessServerMessenger()));
    if (options.seed != null) {
      game.setRandomSource(new SeededDice(options.seed));
      aiRandomnessSeeded = seedJdkRandomness(options.seed);
      // the AIs' battle simulations draw dice from PlainRandomSource objects (ours: see there)
      games.strategy.engine.random.PlainRandomSource.reseed(options.seed);
    }
    loader.startGame(game, players, !options.inClient()); // in the client: opens the TripleAFrame
    messages = new PlayerMessages(data);
    game.addDisplay(messages);
    window = options.inClient() ? openedWindow() : null;
    if (options.inClient() && window == null) {
      return "no window";
    }
    // What ServerGame.startGame does before its endless loop; its loop body is runStep.
    data.getProperties().set(ServerGame.GAME_HAS_BEEN_SAVED_PROPERTY, Boolean.TRUE);
    Reflection.invokePrivate(game, "startPersistentDelegates");
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
    // After a victory the engine stops its step loop (isGameSequenceRunning) and waits for the
    // user to close the game.
    return game.isGameOver() || !game.isGameSequenceRunning();
  }

  @Override
  protected void runStep() throws Exception {
    Reflection.invokePrivate(game, "runStep", false);
  }

  @Override
  protected void finish() throws Exception {
    if (window != null) {
      if (options.centre != null) {
        client.put("centred_on", window.centreOn(data.getMap().getTerritory(options.centre)));
      }
      client.putAll(window.photograph(new File(options.screenshot)));
      client.put("windows", Windows.openWindows());
    }
  }

  @Override
  protected String gameName() {
    return data.getGameName();
  }

  @Override
  protected boolean randomnessSeeded() {
    return aiRandomnessSeeded && idsRepeatable;
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

  /** The created players, with a ScriptedPlayer instead of each player the scenario scripts or makes idle. */
  private Set<IGamePlayer> withScriptedPlayers(final Set<IGamePlayer> created) {
    final Set<IGamePlayer> players = new HashSet<>();
    for (final IGamePlayer player : created) {
      final Script script = options.scripts.get(player.getName());
      final boolean idle = "idle".equals(options.playerAi.get(player.getName()));
      players.add(script == null && !idle ? player
          : new ScriptedPlayer(player.getName(), script == null ? new Script() : script, scriptNotes, idle));
    }
    return players;
  }

  private static String playerTypeOf(final String ai) {
    switch (ai) {
      case "fast":
        return TripleA.FAST_COMPUTER_PLAYER_TYPE;
      case "hard":
        return TripleA.PRO_COMPUTER_PLAYER_TYPE;
      case "none":
      case "idle": // replaced by an idle ScriptedPlayer
        return TripleA.DOESNOTHINGAI_COMPUTER_PLAYER_TYPE;
      default:
        return TripleA.WEAK_COMPUTER_PLAYER_TYPE;
    }
  }

  /**
   * A scenario may start in a later round or at a later step of the first round. The 1.9
   * sequence has no public setter for either, so its two fields are set before the game
   * object reads them (the history's first round node is made from them).
   */
  private void moveToStart() throws ReflectiveOperationException {
    final GameSequence sequence = data.getSequence();
    if (options.startRound != null) {
      final Field round = GameSequence.class.getDeclaredField("m_round");
      round.setAccessible(true);
      round.setInt(sequence, options.startRound);
    }
    if (options.startStep != null) {
      final int index = Sequences.stepIndex(sequence, options.startStep);
      if (index < 0) {
        throw new IllegalArgumentException("no step named " + options.startStep);
      }
      final Field current = GameSequence.class.getDeclaredField("m_currentIndex");
      current.setAccessible(true);
      current.setInt(sequence, index);
    }
  }

  private ClientWindow openedWindow() throws Exception {
    final ClientWindow window = ClientWindow.find();
    client.put("windows", Windows.openWindows());
    if (window == null) {
      log.recordMessage("client", "the desktop client opened no game window");
      return null;
    }
    client.put("frame_title", window.title());
    window.fitToScreen();
    return window;
  }

  /**
   * The engine looks the map folder up by the game's mapName under the user's downloadedMaps
   * (user.home is a temporary folder). Without a real map folder an empty one stands in, so
   * that the engine falls back to its bundled assets instead of prompting for a download.
   */
  private void provideMapFolder() throws IOException {
    final Object mapName = data.getProperties().get(Constants.MAP_NAME);
    if (!(mapName instanceof String) || !isPlainFolderName((String) mapName)) {
      return; // the engine itself reports a missing or unusable mapName when the game starts
    }
    final Path link = ClientFileSystemHelper.getUserMapsFolder().toPath().resolve((String) mapName);
    final Path target = options.mapDir == null ? null : new File(options.mapDir).getAbsoluteFile().toPath();
    if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
      // A serving JVM plays game after game: a game of the same map name with a map folder of its
      // own (the balance lab's mod and base) moves the link made for an earlier game.
      if (target == null || !Files.isSymbolicLink(link) || Files.readSymbolicLink(link).equals(target)) {
        return;
      }
      // safe-write: a link this JVM made, in the maps folder of the scratch home Python made for it
      Files.delete(link);
    }
    // safe-write: the maps folder is under user.home, the scratch home Python made for this JVM
    if (target != null) {
      // safe-write: as above
      Files.createSymbolicLink(link, target);
    } else {
      // safe-write: as above
      Files.createDirectories(link);
    }
  }

  /** A name that stays inside downloadedMaps: the game file decides it, and game files come from anywhere. */
  private static boolean isPlainFolderName(final String name) {
    return !name.trim().isEmpty() && !name.equals(".") && !name.equals("..") && !name.contains("/")
        && !name.contains("\\") && !name.contains("\0");
  }

  /**
   * Units hash by their GUID, which 1.9 makes of a counter and a VMID drawn at random when the JVM
   * starts: sets and maps of units are iterated in another order in every JVM, and the AIs move
   * units in that order. A seeded game gets a VMID whose hash is fixed and a counter from zero, so
   * that its units hash alike in every JVM and in every game a serving JVM plays. Needs --add-opens
   * java.rmi/java.rmi.dgc. The ids stay unique within the game, which is all the engine asks of them.
   */
  private static void repeatableIds() {
    try {
      final java.rmi.dgc.VMID fixed = new java.rmi.dgc.VMID();
      final Field uid = java.rmi.dgc.VMID.class.getDeclaredField("uid");
      uid.setAccessible(true);
      uid.set(fixed, new java.rmi.server.UID((short) 0));
      final Field prefix = games.strategy.net.GUID.class.getDeclaredField("vmPrefix");
      prefix.setAccessible(true);
      prefix.set(null, fixed);
      final Field counter = games.strategy.net.GUID.class.getDeclaredField("lastId");
      counter.setAccessible(true);
      counter.set(null, new java.util.concurrent.atomic.AtomicInteger());
    } catch (final ReflectiveOperationException | RuntimeException e) {
      idsRepeatable = false;
    }
  }
}
