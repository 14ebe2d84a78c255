package tripleagen.harness;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects every exception the engine reports, however it reports it. The 1.9 engine mostly
 * calls printStackTrace on System.out or System.err (its ClientLogger), sometimes uses
 * java.util.logging, and lets some threads die with an uncaught exception; all three paths
 * are hooked here, and each exception is recorded once.
 */
public final class EngineLog {
  private static final int STACK_FRAMES_KEPT = 6;
  // How the desktop client's UnitsDrawer starts its line about a unit it cannot draw.
  private static final String MISSING_IMAGE = "MISSING IMAGE";

  private final List<Map<String, Object>> entries = new ArrayList<>();
  private final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<String, Integer> consoleWarnings = new TreeMap<>();
  private final List<String> missingImages = new ArrayList<>();
  private volatile int round;
  private volatile String step = "";

  /** Forgets everything recorded: a serving JVM (Harness serve) plays the next game. */
  public synchronized void reset() {
    entries.clear();
    seen.clear();
    consoleWarnings.clear();
    missingImages.clear();
    round = 0;
    step = "";
  }

  /** Where the game is, so that each recorded exception says in which round and step it happened. */
  public void setContext(final int round, final String step) {
    this.round = round;
    this.step = step;
  }

  public synchronized void record(final String kind, final Throwable error) {
    if (!seen.add(error)) {
      return;
    }
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", kind);
    entry.put("type", error.getClass().getName());
    entry.put("message", describeChain(error));
    entry.put("round", round);
    entry.put("step", step);
    entry.put("at", topFrames(error));
    final Throwable root = rootCause(error);
    if (root != error) {
      entry.put("cause_at", topFrames(root)); // where the failure really happened
    }
    entry.put("engine_defect", engineDefect(error));
    entries.add(entry);
  }

  private static List<String> topFrames(final Throwable error) {
    final List<String> frames = new ArrayList<>();
    for (final StackTraceElement frame : error.getStackTrace()) {
      if (frames.size() == STACK_FRAMES_KEPT) {
        break;
      }
      frames.add(frame.toString());
    }
    return frames;
  }

  private static Throwable rootCause(final Throwable error) {
    final Set<Throwable> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    Throwable link = error;
    while (link.getCause() != null && visited.add(link)) {
      link = link.getCause();
    }
    return link;
  }

  /**
   * Names a failure that is the 1.9 engine's own on Java 17 whatever the game, or null. The
   * desktop client copies the game data by Java serialization (e.g. at a technology step), and
   * on Java 17 reading it back fails in the equals or hashCode of a named game object
   * (DefaultNamed.equals, UnitType.hashCode: which one depends on what the data holds): seen with
   * the unmodified Global 1940 game as with every mod of it, and the client plays on.
   */
  // A hash map or set being read back asks a named game object (DefaultNamed, UnitType, ...) for
  // its name, to hash or compare it, before the name itself is read back.
  private static final Set<String> NAME_READERS = Set.of("equals", "hashCode");
  private static final String GAME_DATA_PACKAGE = "games.strategy.engine.data.";

  public static String engineDefect(final Throwable error) {
    final Set<Throwable> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable link = error; link != null && visited.add(link); link = link.getCause()) {
      final StackTraceElement[] stack = link.getStackTrace();
      if (link instanceof NullPointerException && stack.length > 0
          && stack[0].getClassName().startsWith(GAME_DATA_PACKAGE)
          && NAME_READERS.contains(stack[0].getMethodName()) && readsSerializedData(stack)) {
        return "1.9 on Java 17 cannot copy the game data (deserialisation fails in "
            + stack[0].getClassName().substring(GAME_DATA_PACKAGE.length()) + "." + stack[0].getMethodName() + ")";
      }
    }
    return null;
  }

  private static boolean readsSerializedData(final StackTraceElement[] stack) {
    for (final StackTraceElement frame : stack) {
      if (frame.getClassName().equals("java.io.ObjectInputStream")) {
        return true;
      }
    }
    return false;
  }

  public synchronized void recordMessage(final String kind, final String message) {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", kind);
    entry.put("type", "");
    entry.put("message", message);
    entry.put("round", round);
    entry.put("step", step);
    entry.put("at", new ArrayList<String>());
    entries.add(entry);
  }

  public synchronized List<Map<String, Object>> entries() {
    return new ArrayList<>(entries);
  }

  /** Lines the engine printed as "Warning: ..." (e.g. the Fast AI's failed copies of the game), counted. */
  public synchronized Map<String, Integer> consoleWarnings() {
    return new TreeMap<>(consoleWarnings);
  }

  private synchronized void noteConsoleLine(final String line) {
    if (line != null && line.startsWith("Warning:")) {
      consoleWarnings.merge(line.trim(), 1, Integer::sum);
    }
    if (line != null && line.startsWith(MISSING_IMAGE)) {
      missingImages.add(line.trim());
    }
  }

  /** The desktop client's "MISSING IMAGE (this unit or image will be invisible): ..." lines, in order. */
  public synchronized List<String> missingImages() {
    return new ArrayList<>(missingImages);
  }

  /**
   * A stream that forwards everything to {@code target} and records any Throwable printed
   * through it: Throwable.printStackTrace hands the throwable itself to println(Object)
   * before printing its frames as strings.
   */
  public PrintStream capturing(final OutputStream target) {
    return new PrintStream(target, true, StandardCharsets.UTF_8) {
      @Override
      public void println(final Object value) {
        if (value instanceof Throwable) {
          record("logged", (Throwable) value);
        }
        super.println(value);
      }

      @Override
      public void println(final String line) {
        noteConsoleLine(line);
        super.println(line);
      }
    };
  }

  /** Hooks java.util.logging and threads that die of an uncaught exception. */
  public void installHooks() {
    Logger.getLogger("").addHandler(new Handler() {
      @Override
      public void publish(final LogRecord logRecord) {
        if (logRecord.getThrown() != null) {
          record("logged", logRecord.getThrown());
        } else if (logRecord.getLevel().intValue() >= Level.SEVERE.intValue()) {
          recordMessage("logged", String.valueOf(logRecord.getMessage()));
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    });
    Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
      record("uncaught in thread " + thread.getName(), error);
      error.printStackTrace();
    });
  }

  /**
   * The message of an exception followed by those of its causes, each only when it adds
   * something: the engine often repeats its cause's message in its own.
   */
  public static String describeChain(final Throwable error) {
    final List<String> parts = new ArrayList<>();
    final Set<Throwable> visited = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable link = error; link != null && visited.add(link); link = link.getCause()) {
      final String text = describe(link);
      if (parts.stream().noneMatch(part -> part.contains(text))) {
        parts.add(text);
      }
    }
    return String.join("; caused by: ", parts);
  }

  /** The engine's own exceptions speak for themselves; for any other, its type is part of the story. */
  private static String describe(final Throwable error) {
    final String message = error.getMessage();
    final String type = error.getClass().getName();
    if (message == null || message.isEmpty()) {
      return type;
    }
    if (type.startsWith("games.strategy.")) {
      return message.trim();
    }
    return error.getClass().getSimpleName() + ": " + message.trim();
  }
}
