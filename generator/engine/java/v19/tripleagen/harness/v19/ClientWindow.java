package tripleagen.harness.v19;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Dimension;
import java.awt.Frame;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Toolkit;
import java.awt.Window;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import javax.imageio.ImageIO;
import javax.swing.SwingUtilities;

import games.strategy.triplea.ui.MapPanel;
import games.strategy.triplea.ui.TripleAFrame;

/**
 * The desktop client's game window (TripleAFrame) on the X display the harness runs under:
 * found after the game loader opened it, fitted to the screen, and photographed.
 */
final class ClientWindow {
  private static final int FRAME_WAIT_MILLIS = 10_000;
  // The client paints the last moves and battles some time after the engine made them.
  private static final int SETTLE_MILLIS = 2_500;

  private final TripleAFrame frame;

  private ClientWindow(final TripleAFrame frame) {
    this.frame = frame;
  }

  /** The game window the loader opened, or null when none appeared. */
  static ClientWindow find() throws InterruptedException {
    final long deadline = System.currentTimeMillis() + FRAME_WAIT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      for (final Frame candidate : Frame.getFrames()) {
        if (candidate instanceof TripleAFrame && candidate.isShowing()) {
          return new ClientWindow((TripleAFrame) candidate);
        }
      }
      Thread.sleep(100);
    }
    return null;
  }

  /** Xvfb has no window manager to maximise the frame as the client asks; size it to the screen. */
  void fitToScreen() throws InterruptedException, InvocationTargetException {
    final Dimension screen = Toolkit.getDefaultToolkit().getScreenSize();
    SwingUtilities.invokeAndWait(() -> {
      frame.setBounds(0, 0, screen.width, screen.height);
      frame.validate();
    });
  }

  /** Scrolls the map to territory (null: not a territory of the game); returns its name or null. */
  String centreOn(final games.strategy.engine.data.Territory territory)
      throws InterruptedException, InvocationTargetException {
    if (territory == null) {
      return null;
    }
    SwingUtilities.invokeAndWait(() -> frame.getMapPanel().centerOn(territory));
    return territory.getName();
  }

  /**
   * Saves the whole screen as a PNG; returns where the window and its map panel are on it, and
   * the battle windows closed first (the client leaves the last battle open until a player
   * presses space; it would hide the map). Any other window stays: an error dialog must show.
   */
  Map<String, Object> photograph(final File png)
      throws InterruptedException, InvocationTargetException, java.awt.AWTException, IOException {
    Thread.sleep(SETTLE_MILLIS);
    final List<String> closed = new ArrayList<>();
    SwingUtilities.invokeAndWait(() -> {
      for (final Window window : Window.getWindows()) {
        if (window != frame && window.isShowing() && holdsBattle(window)) {
          closed.add(describe(window));
          window.dispose();
        }
      }
    });
    Thread.sleep(closed.isEmpty() ? 0 : SETTLE_MILLIS / 5);
    SwingUtilities.invokeAndWait(() -> { });
    final MapPanel mapPanel = frame.getMapPanel();
    final AtomicReference<Rectangle> mapBounds = new AtomicReference<>();
    SwingUtilities.invokeAndWait(() -> {
      final Point origin = mapPanel.getLocationOnScreen();
      mapBounds.set(new Rectangle(origin.x, origin.y, mapPanel.getWidth(), mapPanel.getHeight()));
    });
    final Rectangle screen = new Rectangle(Toolkit.getDefaultToolkit().getScreenSize());
    // safe-write: png is always in the scratch home gui.py gives the JVM (it copies it to the user's name)
    ImageIO.write(new Robot().createScreenCapture(screen), "png", png);
    final Rectangle map = mapBounds.get().intersection(screen);
    final Map<String, Object> shot = new LinkedHashMap<>();
    shot.put("screenshot", png.getPath());
    shot.put("screen", List.of(screen.width, screen.height));
    shot.put("map_panel", List.of(map.x, map.y, map.width, map.height));
    shot.put("battle_windows_closed", closed);
    return shot;
  }

  private static boolean holdsBattle(final Container container) {
    for (final Component child : container.getComponents()) {
      if (child.getClass().getSimpleName().startsWith("BattleDisplay")
          || child instanceof Container && holdsBattle((Container) child)) {
        return true;
      }
    }
    return false;
  }

  private static String describe(final Window window) {
    String title = window.getClass().getSimpleName();
    if (window instanceof Frame) {
      title += ": " + ((Frame) window).getTitle();
    } else if (window instanceof Dialog) {
      title += ": " + ((Dialog) window).getTitle();
    }
    return title;
  }

  String title() {
    return frame.getTitle();
  }

  /** Every window on screen, "Class: title": an error dialog shows up here. */
  static List<String> openWindows() {
    final List<String> titles = new ArrayList<>();
    for (final Window window : Window.getWindows()) {
      if (window.isShowing()) {
        titles.add(describe(window));
      }
    }
    return titles;
  }
}
