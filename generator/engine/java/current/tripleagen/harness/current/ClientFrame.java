package tripleagen.harness.current;

import games.strategy.engine.data.Territory;
import games.strategy.triplea.image.AbstractImageFactory;
import games.strategy.triplea.image.UnitImageFactory;
import games.strategy.triplea.ui.TripleAFrame;
import games.strategy.triplea.ui.UiContext;
import java.awt.Dimension;
import java.awt.Frame;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Toolkit;
import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import javax.swing.SwingUtilities;

import tripleagen.harness.Windows;

/**
 * The 2.x client's game window (TripleAFrame) on the X display: found after the launch action
 * opened it, fitted to the screen, photographed, and asked what it drew as a placeholder.
 */
final class ClientFrame {
  // 2.x builds the frame's map data and images off the event thread before showing it.
  private static final int FRAME_WAIT_MILLIS = 60_000;
  // The client paints the last moves and battles some time after the engine made them.
  private static final int SETTLE_MILLIS = 2_500;
  // It draws the map's tiles in background threads: a large map (Global 1940) on a busy machine
  // can take many seconds after the last step before the map panel shows more than its background.
  private static final int TILES_WAIT_MILLIS = 90_000;
  private static final int PAINTED_COLOURS = 24;

  private final TripleAFrame frame;

  private ClientFrame(final TripleAFrame frame) {
    this.frame = frame;
  }

  static ClientFrame find() throws InterruptedException {
    final long deadline = System.currentTimeMillis() + FRAME_WAIT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      for (final Frame candidate : Frame.getFrames()) {
        if (candidate instanceof TripleAFrame && candidate.isShowing()) {
          return new ClientFrame((TripleAFrame) candidate);
        }
      }
      Thread.sleep(100);
    }
    return null;
  }

  String title() {
    return frame.getTitle();
  }

  /** Xvfb has no window manager to maximise the frame as the client asks; size it to the screen. */
  void fitToScreen() throws Exception {
    final Dimension screen = Toolkit.getDefaultToolkit().getScreenSize();
    SwingUtilities.invokeAndWait(() -> {
      frame.setBounds(0, 0, screen.width, screen.height);
      frame.validate();
    });
  }

  String centreOn(final Territory territory) throws Exception {
    if (territory == null) {
      return null;
    }
    SwingUtilities.invokeAndWait(() -> frame.getMapPanel().centerOn(territory));
    return territory.getName();
  }

  /**
   * Saves the whole screen as a PNG; returns where the map panel is on it. Battle windows are
   * closed first (the last one waits for a player's key and would hide the map); any other
   * window stays: an error window must show.
   */
  Map<String, Object> photograph(final File png) throws Exception {
    Thread.sleep(SETTLE_MILLIS);
    final List<String> closed = Windows.closeBattleWindows(frame);
    Thread.sleep(closed.isEmpty() ? 0 : SETTLE_MILLIS / 5);
    final Rectangle mapBounds = Windows.boundsOnScreen(frame.getMapPanel());
    final Rectangle screen = new Rectangle(Toolkit.getDefaultToolkit().getScreenSize());
    final Robot robot = new Robot();
    final long waited = waitForTiles(robot, mapBounds.intersection(screen));
    // safe-write: png is in this run's private scratch home; Python copies it out through the safe writer
    ImageIO.write(robot.createScreenCapture(screen), "png", png);
    final Rectangle map = mapBounds.intersection(screen);
    final Map<String, Object> shot = Windows.shot(png, screen, map, closed);
    shot.put("tiles_wait_seconds", waited / 1000.0);
    return shot;
  }

  /** Waits until the map panel shows a painted map (many colours), at most TILES_WAIT_MILLIS; returns the wait. */
  private long waitForTiles(final Robot robot, final Rectangle map) throws Exception {
    final long start = System.currentTimeMillis();
    while (!map.isEmpty() && System.currentTimeMillis() - start < TILES_WAIT_MILLIS) {
      if (colours(robot.createScreenCapture(map)) >= PAINTED_COLOURS) {
        break;
      }
      SwingUtilities.invokeAndWait(() -> frame.getMapPanel().repaint());
      Thread.sleep(1_000);
    }
    return System.currentTimeMillis() - start;
  }

  private static int colours(final java.awt.image.BufferedImage picture) {
    final java.util.Set<Integer> seen = new java.util.HashSet<>();
    final int step = 7;
    for (int y = 0; y < picture.getHeight() && seen.size() < PAINTED_COLOURS; y += step) {
      for (int x = 0; x < picture.getWidth() && seen.size() < PAINTED_COLOURS; x += step) {
        seen.add(picture.getRGB(x, y));
      }
    }
    return seen.size();
  }

  /**
   * What the client drew as a stand-in: unit images it found no file for (it draws the engine's
   * missing_unit_image labelled with the name) and resource icons it found no file for (a grey
   * box with two letters). Read from the image factories' caches, so exactly what was drawn.
   */
  Map<String, List<String>> placeholders() {
    final Map<String, List<String>> found = new LinkedHashMap<>();
    final AtomicReference<Map<String, List<String>>> result = new AtomicReference<>(found);
    try {
      SwingUtilities.invokeAndWait(() -> {
        final UiContext context = frame.getUiContext();
        found.put("units", missingUnitImages(context.getUnitImageFactory()));
        found.put("resources", placeholderResources(context));
      });
    } catch (final Exception e) {
      found.put("error", List.of(e.toString()));
    }
    return result.get();
  }

  private static List<String> missingUnitImages(final UnitImageFactory factory) {
    final TreeSet<String> missing = new TreeSet<>();
    try {
      final Map<?, ?> images = (Map<?, ?>) field(UnitImageFactory.class, "images").get(factory);
      final Method baseUrl = UnitImageFactory.class.getDeclaredMethod("getBaseImageUrl",
          UnitImageFactory.ImageKey.class);
      baseUrl.setAccessible(true);
      synchronized (factory) {
        for (final Object key : new ArrayList<>(images.keySet())) {
          final UnitImageFactory.ImageKey imageKey = (UnitImageFactory.ImageKey) key;
          if (((Optional<?>) baseUrl.invoke(factory, imageKey)).isEmpty()) {
            missing.add("units/" + imageKey.getPlayer().getName() + "/" + imageKey.getBaseImageName() + ".png");
          }
        }
      }
    } catch (final ReflectiveOperationException e) {
      missing.add("(could not read the unit image cache: " + e + ")");
    }
    return new ArrayList<>(missing);
  }

  private static List<String> placeholderResources(final UiContext context) {
    final TreeSet<String> missing = new TreeSet<>();
    try {
      final Map<?, ?> icons = (Map<?, ?>) field(AbstractImageFactory.class, "icons")
          .get(context.getResourceImageFactory());
      for (final Object name : new ArrayList<>(icons.keySet())) {
        final String file = "resources/" + name + ".png";
        // the lookup ResourceImageFactory makes: the map folder, then the engine's assets
        if (context.getResourceLoader().getResource(file) == null) {
          missing.add(file);
        }
      }
    } catch (final ReflectiveOperationException e) {
      missing.add("(could not read the resource icon cache: " + e + ")");
    }
    return new ArrayList<>(missing);
  }

  private static Field field(final Class<?> owner, final String name) throws NoSuchFieldException {
    final Field field = owner.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }

}
