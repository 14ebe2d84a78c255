package tripleagen.harness.v19;

import java.io.File;
import java.lang.reflect.Field;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import games.strategy.engine.ClientFileSystemHelper;
import games.strategy.engine.data.PlayerID;
import games.strategy.triplea.ResourceLoader;
import games.strategy.triplea.image.UnitImageFactory;
import games.strategy.triplea.ui.AbstractUIContext;
import games.strategy.triplea.ui.NotificationMessages;
import games.strategy.triplea.ui.PoliticsText;
import games.strategy.triplea.ui.UserActionText;

/**
 * What the desktop client would show for named things of an installed map folder, asked of the
 * client's own classes: the texts of political and user action buttons (PoliticsText,
 * UserActionText), notification messages (NotificationMessages) and where a unit's image comes
 * from (UnitImageFactory). All of them read the map through the ResourceLoader the client uses.
 *
 * <pre>
 *   Harness texts MAP_NAME MAP_DIR [politics:KEY] [actions:KEY] [notification:KEY] [unit:PLAYER:TYPE]...
 * </pre>
 */
final class TextsMode {
  private TextsMode() {}

  static Map<String, Object> run(final List<String> args) throws Exception {
    if (args.size() < 2) {
      throw new IllegalArgumentException("texts needs MAP_NAME MAP_DIR");
    }
    final String mapName = args.get(0);
    final Path link = ClientFileSystemHelper.getUserMapsFolder().toPath().resolve(mapName);
    // safe-write: the maps folder is under user.home, the scratch home Python made for this JVM
    Files.createDirectories(link.getParent());
    // safe-write: as above
    Files.createSymbolicLink(link, new File(args.get(1)).getAbsoluteFile().toPath());
    final ResourceLoader loader = ResourceLoader.getMapResourceLoader(mapName);
    // The client sets this when it opens a game; the text classes read the map through it.
    final Field field = AbstractUIContext.class.getDeclaredField("resourceLoader");
    field.setAccessible(true);
    field.set(null, loader);
    final UnitImageFactory units = new UnitImageFactory();
    units.setResourceLoader(loader, 1.0, UnitImageFactory.DEFAULT_UNIT_ICON_SIZE,
        UnitImageFactory.DEFAULT_UNIT_ICON_SIZE, 0, 0);
    final List<Object> answers = new ArrayList<>();
    for (final String question : args.subList(2, args.size())) {
      final String[] parts = question.split(":", 3);
      final Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("ask", question);
      switch (parts[0]) {
        case "politics":
          answer.put("button", PoliticsText.getInstance().getButtonText(parts[1]));
          answer.put("description", PoliticsText.getInstance().getDescription(parts[1]));
          break;
        case "actions":
          answer.put("button", UserActionText.getInstance().getButtonText(parts[1]));
          answer.put("description", UserActionText.getInstance().getDescription(parts[1]));
          break;
        case "notification":
          answer.put("message", NotificationMessages.getInstance().getMessage(parts[1]));
          break;
        case "unit":
          final Optional<URL> url = units.getBaseImageUrl(parts[2], new PlayerID(parts[1], null));
          answer.put("image", url.map(URL::toString).orElse(null));
          break;
        default:
          throw new IllegalArgumentException("unknown question " + question);
      }
      answers.add(answer);
    }
    final Map<String, Object> report = new LinkedHashMap<>();
    report.put("answers", answers);
    return report;
  }
}
