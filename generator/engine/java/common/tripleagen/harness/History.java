package tripleagen.harness;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import javax.swing.tree.TreeNode;

/** The records read from a game's history: fired triggers, aircraft removed, every event. */
public final class History {
  private History() {}

  /** One history event: its round, the step it was written in, its text. */
  private static final class Event {
    final int round;
    final String step;
    final String text;

    Event(final int round, final String step, final String text) {
      this.round = round;
      this.step = step;
      this.text = text;
    }

    Map<String, Object> record() {
      final Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("round", round);
      entry.put("step", step);
      entry.put("event", text);
      return entry;
    }
  }

  /**
   * Trigger actions write history events whose text starts with the trigger's display name
   * ("triggerAttachmentX" is shown as "Trigger X"). One entry per trigger, round and step.
   */
  public static List<Object> firedTriggers(final Facts facts) {
    final Map<String, String> triggersByPrefix = facts.triggerPrefixes();
    final List<Object> fired = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    for (final Event event : events(facts)) {
      for (final Map.Entry<String, String> trigger : triggersByPrefix.entrySet()) {
        if (event.text.startsWith(trigger.getKey())
            && seen.add(trigger.getValue() + "\n" + event.round + "\n" + event.step)) {
          final Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("trigger", trigger.getValue());
          entry.putAll(event.record());
          fired.add(entry);
        }
      }
    }
    return fired;
  }

  /**
   * Every history event in which the engine removed aircraft that could not land ("... could not land in
   * X and were removed"), with its round and step: only a non-combat move or the player's own place step
   * should ever cause one.
   */
  public static List<Object> airRemoved(final Facts facts) {
    final List<Object> removed = new ArrayList<>();
    for (final Event event : events(facts)) {
      if (event.text.contains(" could not land in ")) {
        removed.add(event.record());
      }
    }
    return removed;
  }

  /** Every history event (round, step, text), the first `limit` of them: a scenario's evidence. */
  public static List<Object> historyEvents(final Facts facts, final int limit) {
    final List<Object> events = new ArrayList<>();
    for (final Event event : events(facts)) {
      if (events.size() < limit) {
        events.add(event.record());
      }
    }
    return events;
  }

  /**
   * A roll of a battle as the client's dice panel shows it: the engine's line ("Germans roll dice
   * for 3 infantry in France, round 2 : 4,1,6") and the strength each die was rolled at, "(rolled
   * at 2)" when all share one, so a scenario can expect a unit's attack without expecting dice.
   */
  public static String diceText(final String line, final int[] rolledAt) {
    final Set<Integer> strengths = new TreeSet<>();
    final List<String> each = new ArrayList<>();
    for (final int strength : rolledAt) {
      strengths.add(strength);
      each.add(String.valueOf(strength));
    }
    final String at = strengths.size() == 1 ? strengths.iterator().next().toString() : String.join(",", each);
    return line + " (rolled at " + at + ")";
  }

  private static List<Event> events(final Facts facts) {
    final List<Event> events = new ArrayList<>();
    walk(facts, facts.historyRoot(), 0, "", events);
    return events;
  }

  private static void walk(final Facts facts, final TreeNode node, final int round, final String step,
      final List<Event> events) {
    int nodeRound = round;
    String nodeStep = step;
    final Integer roundNo = facts.roundOf(node);
    final String stepName = roundNo == null ? facts.stepOf(node) : null;
    if (roundNo != null) {
      nodeRound = roundNo;
    } else if (stepName != null) {
      nodeStep = stepName;
    } else {
      final String text = facts.eventOf(node);
      if (text != null) {
        events.add(new Event(nodeRound, nodeStep, text));
      }
    }
    final Enumeration<? extends TreeNode> children = node.children();
    while (children.hasMoreElements()) {
      walk(facts, children.nextElement(), nodeRound, nodeStep, events);
    }
  }
}
