package tripleagen.harness.v19;

import java.awt.Dimension;
import java.awt.Frame;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Toolkit;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;
import javax.swing.SwingUtilities;

import games.strategy.triplea.ui.TripleAFrame;

import tripleagen.harness.Windows;

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
  Map<String, Object> photograph(final File png) throws Exception {
    Thread.sleep(SETTLE_MILLIS);
    final List<String> closed = Windows.closeBattleWindows(frame);
    Thread.sleep(closed.isEmpty() ? 0 : SETTLE_MILLIS / 5);
    SwingUtilities.invokeAndWait(() -> { });
    final Rectangle mapBounds = Windows.boundsOnScreen(frame.getMapPanel());
    final Rectangle screen = new Rectangle(Toolkit.getDefaultToolkit().getScreenSize());
    // safe-write: png is always in the scratch home gui.py gives the JVM (it copies it to the user's name)
    ImageIO.write(new Robot().createScreenCapture(screen), "png", png);
    final Rectangle map = mapBounds.intersection(screen);
    final Map<String, Object> shot = Windows.shot(png, screen, map, closed);
    return shot;
  }

  String title() {
    return frame.getTitle();
  }

}
