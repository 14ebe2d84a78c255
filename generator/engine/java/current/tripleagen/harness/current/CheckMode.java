package tripleagen.harness.current;

import tripleagen.harness.*;

import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.gameparser.GameParser;
import games.strategy.engine.data.gameparser.GameParsingValidation;
import games.strategy.engine.data.gameparser.XmlGameElementMapper;
import games.strategy.triplea.attachments.TriggerAttachment;
import org.triplea.util.Tuple;

/**
 * The 2.x engine's load check, as its game selector runs it (GameSelectorModel.parseAndValidate):
 * GameParser on the file, then GameParsingValidation on the game it made.
 */
final class CheckMode {
  private CheckMode() {}

  static Map<String, Object> run(final List<String> paths) {
    final List<Object> results = new ArrayList<>();
    for (final String path : paths) {
      results.add(checkOne(path));
    }
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("results", results);
    return report;
  }

  private static Map<String, Object> checkOne(final String path) {
    final Map<String, Object> result = new LinkedHashMap<>();
    result.put("path", path);
    final Parsed parsed = parse(path);
    result.put("ok", parsed.data != null);
    result.put("counts", parsed.data == null ? null : counts(parsed.data));
    result.put("error", parsed.error);
    result.put("warnings", parsed.dtdComplaints); // 2.x does not validate against game.dtd: none
    return result;
  }

  /** The outcome of one parse: the game or the engine's reason for refusing it. */
  static final class Parsed {
    GameData data;
    String error;
    final List<String> dtdComplaints = new ArrayList<>();
  }

  static Parsed parse(final String path) {
    final Parsed parsed = new Parsed();
    final Path file = Path.of(path);
    try {
      parsed.data = parseGame(file);
      final List<String> invalid = new GameParsingValidation(parsed.data).validate();
      if (!invalid.isEmpty()) {
        parsed.data = null;
        parsed.error = "the game selector's validation: " + String.join("; ", invalid);
      }
    } catch (final Exception | LinkageError | StackOverflowError e) {
      parsed.data = null;
      parsed.error = EngineLog.describeChain(e);
    }
    return parsed;
  }

  /**
   * GameParser.parse(Path, boolean) logs why a file fails and returns nothing; its private
   * constructor and parse method (what that public method calls) throw the reason instead.
   * Attachment order and values are collected for the counts (the selector leaves them out;
   * parsing is otherwise the same).
   */
  private static GameData parseGame(final Path file) throws Exception {
    final Constructor<GameParser> make =
        GameParser.class.getDeclaredConstructor(Path.class, XmlGameElementMapper.class, boolean.class);
    make.setAccessible(true);
    final GameParser parser = make.newInstance(file, new XmlGameElementMapper(), true);
    final Method parse = GameParser.class.getDeclaredMethod("parse", Path.class, InputStream.class);
    parse.setAccessible(true);
    try (InputStream input = Files.newInputStream(file)) {
      return (GameData) parse.invoke(parser, file, input);
    } catch (final InvocationTargetException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
  }

  static Map<String, Object> counts(final GameData data) {
    final List<Tuple<IAttachment, List<Tuple<String, String>>>> attachments = data.getAttachmentOrderAndValues();
    int triggers = 0;
    for (final Tuple<IAttachment, List<Tuple<String, String>>> attachment : attachments) {
      if (attachment.getFirst() instanceof TriggerAttachment) {
        triggers++;
      }
    }
    final Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("territories", data.getMap().getTerritories().size());
    counts.put("players", data.getPlayerList().size());
    counts.put("unit_types", data.getUnitTypeList().size());
    counts.put("attachments", attachments.size());
    counts.put("triggers", triggers);
    counts.put("steps", data.getSequence().size());
    return counts;
  }
}
