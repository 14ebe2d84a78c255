package tripleagen.harness.current;

import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import tripleagen.harness.Checks;
import tripleagen.harness.EngineLog;
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
    return Checks.run(paths, CheckMode::parse, CheckMode::counts);
  }

  static Checks.Parsed<GameData> parse(final String path) {
    final Checks.Parsed<GameData> parsed = new Checks.Parsed<>();
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
    return Checks.counts(data.getMap().getTerritories().size(), data.getPlayerList().size(),
        data.getUnitTypeList().size(), attachments.size(), triggers, data.getSequence().size());
  }
}
