package tripleagen.harness;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * triplea-gen's bridge to a TripleA engine (1.9 or 2.x: the EngineModes its adapter package's Main
 * passes). Usage:
 *
 * <pre>
 *   Harness check GAME.xml...
 *   Harness texts MAP_NAME MAP_DIR QUESTION...   (see TextsMode)
 *   Harness play GAME.xml [--rounds N] [--ai easy|fast|hard] [--seed S] [--map-dir DIR] [--timeout SEC]
 *               [--screenshot SHOT.png]   (the desktop client instead of headless; needs a display)
 *               [--centre TERRITORY]      (the screenshot shows this territory in the middle)
 *               [--player-ai PLAYER=easy|fast|hard|none]... [--start-round N] [--start-step STEP]
 *               [--until-round N] [--until-step STEP]   (scenario runs: stop before that step)
 *               [--history true]          (the report lists every history event)
 *               [--round-stats true]      (each player's state at the end of every round: balance lab)
 *               [--political-action PLAYER=ACTION]...   (that player does nothing but attempt it)
 *               [--user-action PLAYER=ACTION]...        (the same, in its user-actions steps)
 *               [--purchase PLAYER=UNIT:N]...           (that player buys these instead)
 *               [--place PLAYER=TERRITORY:UNIT:N]...    (and places these instead)
 *               [--move PLAYER=combat|noncombat:FROM>...>TO:UNIT*N,...]... (and moves these)
 *   Harness odds GAME.xml SEED RUNS BATTLE...  (the engine's battle calculator; see OddsMode)
 *   Harness serve    (one game per line of stdin: the play arguments, tab-separated; one report line each)
 * </pre>
 *
 * <p>The only thing written to stdout is one JSON document; everything the engine prints goes
 * to stderr. Run it with the engine's bin folder as working directory (the engine reads
 * game_engine.properties from there) and user.home pointing at a scratch folder.
 */
public final class Harness {
  private Harness() {}

  /** The entry point of an engine's Main: runs the mode args name with that engine's modes and halts. */
  public static void run(final String[] args, final EngineModes modes) {
    watchParent();
    // safe-write: the process's own stdout and stderr, not files
    final PrintStream reportOut = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
        StandardCharsets.UTF_8);
    // safe-write: stderr
    final PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
        StandardCharsets.UTF_8);
    final EngineLog log = new EngineLog();
    // Before any engine class is loaded: its ClientLogger keeps the streams it first sees.
    System.setOut(log.capturing(console));
    System.setErr(log.capturing(console));
    int status = 0;
    try {
      final List<String> rest = new ArrayList<>(Arrays.asList(args));
      final String mode = rest.isEmpty() ? "" : rest.remove(0);
      if ("check".equals(mode)) {
        reportOut.println(Json.write(modes.check.answer(rest)));
      } else if ("odds".equals(mode)) {
        reportOut.println(Json.write(modes.odds.answer(rest)));
      } else if ("texts".equals(mode)) {
        reportOut.println(Json.write(modes.texts.answer(rest)));
      } else if ("play".equals(mode)) {
        log.installHooks();
        modes.play.play(playOptions(rest), log, reportOut);
      } else if ("serve".equals(mode)) {
        log.installHooks();
        serve(modes, log, reportOut);
      } else {
        console.println("usage: Harness check GAME.xml... | Harness play GAME.xml [options]");
        status = 2;
      }
    } catch (final IllegalArgumentException e) {
      console.println("harness: " + e.getMessage());
      status = 2;
    } catch (final Exception e) {
      console.println("harness: " + e);
      status = 1;
    }
    reportOut.flush();
    console.flush();
    // The engine leaves non-daemon threads behind (messengers, AI helpers); do not wait for them.
    Runtime.getRuntime().halt(status);
  }

  /**
   * With -Dtriplea-gen.parent=stdin, stdin is a pipe whose other end only triplea-gen holds and
   * never writes to: its end of file means triplea-gen is gone (even killed outright, when it can
   * stop nothing), and the JVM halts at once instead of playing on for nobody.
   */
  @SuppressWarnings("resource") // stdin stays open for the JVM's life: its end is the signal
  public static void watchParent() {  // also the 2.x client's (current/ClientGui.java)
    if (!"stdin".equals(System.getProperty("triplea-gen.parent"))) {
      return;
    }
    final InputStream parent = new FileInputStream(FileDescriptor.in);
    final Thread watcher = new Thread(() -> {
      try {
        final byte[] ignored = new byte[256];
        while (parent.read(ignored) >= 0) {
          // triplea-gen writes nothing; anything read is ignored
        }
      } catch (final IOException e) {
        // a broken pipe means the same: the parent is gone
      }
      Runtime.getRuntime().halt(143);
    }, "triplea-gen parent watch");
    watcher.setDaemon(true);
    watcher.start();
  }

  /**
   * Plays games one after the other in this JVM, warm: loading the engine's classes and compiling
   * them costs more than most scenario games. Each line of stdin is one game's play arguments,
   * tab-separated; each gets exactly one report line. A game past its time limit halts the JVM
   * after its report, as in play mode; the caller starts another.
   */
  private static void serve(final EngineModes modes, final EngineLog log, final PrintStream reportOut) throws IOException {
    final BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = requests.readLine(); line != null; line = requests.readLine()) {
      if (line.isEmpty()) {
        continue;
      }
      log.reset();
      final PlayOptions options;
      try {
        options = playOptions(new ArrayList<>(Arrays.asList(line.split("\t", -1))));
      } catch (final IllegalArgumentException e) {
        final Map<String, Object> refused = new LinkedHashMap<>();
        refused.put("ok", false);
        refused.put("error", "harness: " + e.getMessage());
        reportOut.println(Json.write(refused));
        continue;
      }
      modes.play.play(options, log, reportOut);
      reportOut.flush();
    }
  }

  private static PlayOptions playOptions(final List<String> args) {
    final PlayOptions options = new PlayOptions();
    for (int i = 0; i < args.size(); i++) {
      final String arg = args.get(i);
      if (!arg.startsWith("--")) {
        if (options.path != null) {
          throw new IllegalArgumentException("play takes one game file, got also " + arg);
        }
        options.path = arg;
        continue;
      }
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      final String value = args.get(++i);
      switch (arg) {
        case "--rounds":
          options.rounds = Integer.parseInt(value);
          break;
        case "--ai":
          if (!value.equals("easy") && !value.equals("fast") && !value.equals("hard")) {
            throw new IllegalArgumentException("--ai must be easy, fast or hard, not " + value);
          }
          options.ai = value;
          break;
        case "--seed":
          options.seed = Long.parseLong(value);
          break;
        case "--map-dir":
          options.mapDir = value;
          break;
        case "--timeout":
          options.timeoutSeconds = Double.parseDouble(value);
          break;
        case "--screenshot":
          options.screenshot = value;
          break;
        case "--centre":
          options.centre = value;
          break;
        case "--player-ai": {
          final int equals = value.indexOf('=');
          final String ai = equals < 0 ? "" : value.substring(equals + 1);
          if (!ai.equals("easy") && !ai.equals("fast") && !ai.equals("hard") && !ai.equals("none")
              && !ai.equals("idle")) {
            throw new IllegalArgumentException("--player-ai takes PLAYER=easy|fast|hard|none|idle, not " + value);
          }
          options.playerAi.put(value.substring(0, equals), ai);
          break;
        }
        case "--start-round":
          options.startRound = Integer.parseInt(value);
          break;
        case "--start-step":
          options.startStep = value;
          break;
        case "--until-round":
          options.untilRound = Integer.parseInt(value);
          break;
        case "--until-step":
          options.untilStep = value;
          break;
        case "--political-action":
        case "--user-action":
        case "--purchase":
        case "--place":
        case "--move":
          Script.add(options.scripts, arg, value);
          break;
        case "--history":
          options.history = Boolean.parseBoolean(value);
          break;
        case "--round-stats":
          options.roundStats = Boolean.parseBoolean(value);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if (options.path == null) {
      throw new IllegalArgumentException("play needs a game file");
    }
    return options;
  }
}
