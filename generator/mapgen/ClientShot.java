package tripleagen.mapgen;

import tripleagen.harness.Json;
import tripleagen.harness.Reflection;

import java.awt.Component;
import java.awt.Frame;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;
import javax.swing.SwingUtilities;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.gamePlayer.IGamePlayer;
import games.strategy.net.HeadlessServerMessenger;
import games.strategy.net.Messengers;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.ui.MapPanel;
import games.strategy.triplea.ui.TripleAFrame;

/**
 * Opens a game in the real TripleA 1.9 desktop client (its game frame, as after "Play"),
 * lets the engine's easy AI play every player for the requested rounds, then saves a
 * screenshot of the whole screen and a picture of the map panel, and writes a small JSON
 * report. Usage:
 *
 * <pre>
 *   ClientShot GAME.xml SCREEN.png MAP.png REPORT.json ROUNDS
 * </pre>
 *
 * <p>Run it with the engine's bin folder as working directory and user.home pointing at a
 * folder whose triplea/downloadedMaps holds the game's map folder; the stock launcher is
 * skipped because it reaches for the network at start-up.
 */
public final class ClientShot {
  private ClientShot() {}

  public static void main(final String[] args) throws Exception {
    final Map<String, Object> report = new LinkedHashMap<>();
    final List<String> errors = new ArrayList<>();
    report.put("started", false);
    int status = 0;
    try {
      run(args, report, errors);
    } catch (final Throwable e) {
      errors.add(describe(e));
      status = 1;
    }
    report.put("errors", errors);
    Files.write(new File(args[3]).toPath(), Json.write(report).getBytes(StandardCharsets.UTF_8));
    // The engine leaves non-daemon threads behind (messengers, AI helpers); do not wait for them.
    Runtime.getRuntime().halt(status);
  }

  private static void run(final String[] args, final Map<String, Object> report, final List<String> errors)
      throws Exception {
    final String xml = args[0];
    final int rounds = Integer.parseInt(args[4]);
    final GameData data;
    try (InputStream input = new FileInputStream(xml)) {
      data = new GameParser(new File(xml).getName()).parse(input, new AtomicReference<>(), false);
    }
    final TripleA loader = (TripleA) data.getGameLoader();
    final Map<String, String> playerTypes = new LinkedHashMap<>();
    for (final PlayerID player : data.getPlayerList().getPlayers()) {
      playerTypes.put(player.getName(), TripleA.WEAK_COMPUTER_PLAYER_TYPE);
    }
    final Set<IGamePlayer> players = loader.createPlayers(playerTypes);
    final ServerGame game =
        new ServerGame(data, players, new HashMap<>(), new Messengers(new HeadlessServerMessenger()));
    loader.startGame(game, players, false); // builds and shows the TripleAFrame
    final TripleAFrame frame = findFrame();
    report.put("started", frame != null);
    if (frame == null) {
      errors.add("no game frame was opened");
      return;
    }
    report.put("frameTitle", frame.getTitle());
    // Xvfb has no window manager to maximise the frame as the client asks; size it to the screen.
    final java.awt.Dimension screenSize = java.awt.Toolkit.getDefaultToolkit().getScreenSize();
    SwingUtilities.invokeAndWait(() -> {
      frame.setBounds(0, 0, screenSize.width, screenSize.height);
      frame.validate();
    });

    // What ServerGame.startGame does before its endless loop, then the loop body one step at
    // a time, so that the game stops after the requested rounds.
    data.getProperties().set(ServerGame.GAME_HAS_BEEN_SAVED_PROPERTY, Boolean.TRUE);
    Reflection.invokePrivate(game, "startPersistentDelegates");
    final GameSequence sequence = data.getSequence();
    final int firstRound = sequence.getRound();
    int steps = 0;
    while (sequence.getRound() < firstRound + rounds && !game.isGameOver()) {
      try {
        Reflection.invokePrivate(game, "runStep", false);
      } catch (final java.lang.reflect.InvocationTargetException e) {
        errors.add("step " + sequence.getStep().getName() + ": " + describe(e.getCause()));
        break;
      }
      steps++;
    }
    report.put("roundsPlayed", sequence.getRound() - firstRound);
    report.put("steps", steps);
    report.put("gameOver", game.isGameOver());

    // Let the frame catch up with the last changes, then photograph it.
    Thread.sleep(2500);
    SwingUtilities.invokeAndWait(() -> { });
    final MapPanel mapPanel = frame.getMapPanel();
    final AtomicReference<Rectangle> mapBounds = new AtomicReference<>();
    SwingUtilities.invokeAndWait(() -> {
      final Point origin = mapPanel.getLocationOnScreen();
      mapBounds.set(new Rectangle(origin.x, origin.y, mapPanel.getWidth(), mapPanel.getHeight()));
    });
    final Robot robot = new Robot();
    final Rectangle screen = new Rectangle(java.awt.Toolkit.getDefaultToolkit().getScreenSize());
    ImageIO.write(robot.createScreenCapture(screen), "png", new File(args[1]));
    final Rectangle map = mapBounds.get().intersection(screen);
    ImageIO.write(robot.createScreenCapture(map), "png", new File(args[2]));
    report.put("mapPanel", List.of(map.x, map.y, map.width, map.height));
    report.put("frame", List.of(frame.getX(), frame.getY(), frame.getWidth(), frame.getHeight()));
    report.put("windows", openWindows());
  }

  private static TripleAFrame findFrame() throws InterruptedException {
    for (int attempt = 0; attempt < 100; attempt++) {
      for (final Frame frame : Frame.getFrames()) {
        if (frame instanceof TripleAFrame && frame.isShowing()) {
          return (TripleAFrame) frame;
        }
      }
      Thread.sleep(100);
    }
    return null;
  }

  /** Titles of every window on screen: an error dialog would show up here. */
  private static List<String> openWindows() {
    final List<String> titles = new ArrayList<>();
    for (final java.awt.Window window : java.awt.Window.getWindows()) {
      if (window.isShowing()) {
        String title = window.getClass().getSimpleName();
        if (window instanceof Frame) {
          title += ": " + ((Frame) window).getTitle();
        } else if (window instanceof java.awt.Dialog) {
          title += ": " + ((java.awt.Dialog) window).getTitle();
        }
        titles.add(title);
      }
    }
    return titles;
  }

  private static String describe(final Throwable e) {
    final StringWriter text = new StringWriter();
    e.printStackTrace(new PrintWriter(text));
    final String[] lines = text.toString().split("\n");
    final StringBuilder shortText = new StringBuilder();
    for (int i = 0; i < Math.min(lines.length, 6); i++) {
      shortText.append(lines[i].trim()).append(i + 1 < Math.min(lines.length, 6) ? " | " : "");
    }
    return shortText.toString();
  }
}
