package tripleagen.harness.v19;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.xml.sax.SAXParseException;

import tripleagen.harness.Checks;
import tripleagen.harness.EngineLog;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.IAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.util.Tuple;

/** The engine's load check: its own GameParser on each file, as the game chooser would run it. */
final class CheckMode {
  private CheckMode() {}

  static Map<String, Object> run(final List<String> paths) {
    return Checks.run(paths, CheckMode::parse, CheckMode::counts);
  }

  static Checks.Parsed<GameData> parse(final String path) {
    final Checks.Parsed<GameData> parsed = new Checks.Parsed<>();
    // The file name, not the full path, becomes the engine's "map name" in its messages,
    // so that they read the same on every machine.
    final GameParser parser = new GameParser(new File(path).getName());
    try (InputStream input = new FileInputStream(path)) {
      parsed.data = parser.parse(input, new AtomicReference<>(), false);
    } catch (final Exception | LinkageError | StackOverflowError e) {
      parsed.error = EngineLog.describeChain(e);
    }
    parsed.dtdComplaints.addAll(dtdComplaints(parser));
    return parsed;
  }

  /**
   * The engine collects DTD violations in a private list and prints them only when parsing gets
   * past the game loader; reading the list directly gives them for every file.
   */
  private static List<String> dtdComplaints(final GameParser parser) {
    final List<String> complaints = new ArrayList<>();
    try {
      final Field field = GameParser.class.getDeclaredField("errorsSAX");
      field.setAccessible(true);
      for (final Object item : (Collection<?>) field.get(parser)) {
        final SAXParseException error = (SAXParseException) item;
        complaints.add("line " + error.getLineNumber() + ", column " + error.getColumnNumber() + ": "
            + error.getMessage());
      }
    } catch (final ReflectiveOperationException | RuntimeException e) {
      complaints.add("could not read the engine's DTD complaints: " + e);
    }
    return complaints;
  }

  static Map<String, Object> counts(final GameData data) {
    final List<Tuple<IAttachment, ArrayList<Tuple<String, String>>>> attachments =
        data.getAttachmentOrderAndValues();
    int triggers = 0;
    for (final Tuple<IAttachment, ArrayList<Tuple<String, String>>> attachment : attachments) {
      if (attachment.getFirst() instanceof TriggerAttachment) {
        triggers++;
      }
    }
    return Checks.counts(data.getMap().getTerritories().size(), data.getPlayerList().size(),
        data.getUnitTypeList().size(), attachments.size(), triggers, data.getSequence().size());
  }
}
