package tripleagen.harness;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Frame;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Window;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import javax.swing.SwingUtilities;

/**
 * The desktop client's windows on the X display, through AWT alone (the same in both engines):
 * which are open, closing the battle windows before a photograph, and the photograph's record.
 */
public final class Windows {
  private Windows() {}

  /** Every window on screen, "Class: title": an error dialog shows up here. */
  public static List<String> openWindows() {
    final List<String> titles = new ArrayList<>();
    for (final Window window : Window.getWindows()) {
      if (window.isShowing()) {
        titles.add(describe(window));
      }
    }
    return titles;
  }

  /**
   * Closes every battle window but the game's own (the client leaves the last battle open until a
   * player presses a key; it would hide the map); any other window stays: an error window must show.
   * Returns the windows closed.
   */
  public static List<String> closeBattleWindows(final Window gameWindow) throws Exception {
    final List<String> closed = new ArrayList<>();
    SwingUtilities.invokeAndWait(() -> {
      for (final Window window : Window.getWindows()) {
        if (window != gameWindow && window.isShowing() && holdsBattle(window)) {
          closed.add(describe(window));
          window.dispose();
        }
      }
    });
    return closed;
  }

  /** Where a component is on the screen (read on the event thread). */
  public static Rectangle boundsOnScreen(final Component component) throws Exception {
    final AtomicReference<Rectangle> bounds = new AtomicReference<>();
    SwingUtilities.invokeAndWait(() -> {
      final Point origin = component.getLocationOnScreen();
      bounds.set(new Rectangle(origin.x, origin.y, component.getWidth(), component.getHeight()));
    });
    return bounds.get();
  }

  /** The photograph's record: the file, the screen's size, the map panel on it, the battle windows closed. */
  public static Map<String, Object> shot(final File png, final Rectangle screen, final Rectangle map,
      final List<String> closed) {
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
}
