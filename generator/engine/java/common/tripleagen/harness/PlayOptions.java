package tripleagen.harness;

import java.util.LinkedHashMap;
import java.util.Map;

/** The options of one play run (Harness play or one serve line), read by Harness.playOptions. */
public final class PlayOptions {
  public String path;
  public int rounds = 2;
  public String ai = "easy";
  public Long seed;
  public String mapDir;
  public double timeoutSeconds = 600;
  public String screenshot; // set: open the desktop client and save a screenshot here
  public String centre; // set: the map is scrolled to this territory before the screenshot
  // Scenario runs (triplea-gen test): an AI per player (easy, fast or none = does nothing),
  // a start round and step instead of the game's first, and a step to stop before.
  public final Map<String, String> playerAi = new LinkedHashMap<>();
  public Integer startRound;
  public String startStep;
  public Integer untilRound;
  public String untilStep;
  public boolean history; // the report lists every history event
  public boolean roundStats; // the report gives each player's state at the end of every round (balance lab)
  // Players that do nothing but what their script says (and accept every proposal)
  public final Map<String, Script> scripts = new LinkedHashMap<>();

  public boolean inClient() {
    return screenshot != null;
  }
}
