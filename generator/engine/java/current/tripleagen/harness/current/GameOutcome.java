package tripleagen.harness.current;

import tripleagen.harness.*;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import javax.swing.tree.TreeNode;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.engine.history.Event;
import games.strategy.engine.history.EventChild;
import games.strategy.engine.history.Round;
import games.strategy.engine.history.Step;
import games.strategy.triplea.attachments.AbstractRulesAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.delegate.DiceRoll;
import games.strategy.triplea.delegate.Die;
import games.strategy.triplea.delegate.EndRoundDelegate;
import games.strategy.triplea.formatter.MyFormatter;
import org.triplea.util.Tuple;

/** Where a played game ended up: the triggers that fired (from the history), the winners, each player's state. */
final class GameOutcome {
  private GameOutcome() {}

  /**
   * Trigger actions write history events whose text starts with the trigger's display name
   * ("triggerAttachmentX" is shown as "Trigger X"). One entry per trigger, round and step.
   */
  static List<Object> firedTriggers(final GameData data) {
    final Map<String, String> triggersByPrefix = new LinkedHashMap<>();
    for (final Tuple<IAttachment, List<Tuple<String, String>>> attachment : data.getAttachmentOrderAndValues()) {
      if (attachment.getFirst() instanceof TriggerAttachment) {
        final String name = attachment.getFirst().getName();
        triggersByPrefix.put(MyFormatter.attachmentNameToText(name) + ":", name);
      }
    }
    final List<Object> fired = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    forEachEvent((TreeNode) data.getHistory().getRoot(), 0, "", (round, step, text) -> {
      for (final Map.Entry<String, String> trigger : triggersByPrefix.entrySet()) {
        if (text.startsWith(trigger.getKey()) && seen.add(trigger.getValue() + "\n" + round + "\n" + step)) {
          final Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("trigger", trigger.getValue());
          entry.put("round", round);
          entry.put("step", step);
          entry.put("event", text);
          fired.add(entry);
        }
      }
    });
    return fired;
  }

  /**
   * Every history event in which the engine removed aircraft that could not land ("... could not land in
   * X and were removed"), with its round and step: only a non-combat move or the player's own place step
   * should ever cause one.
   */
  static List<Object> airRemoved(final GameData data) {
    final List<Object> removed = new ArrayList<>();
    forEachEvent((TreeNode) data.getHistory().getRoot(), 0, "", (round, step, text) -> {
      if (text.contains(" could not land in ")) {
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("round", round);
        entry.put("step", step);
        entry.put("event", text);
        removed.add(entry);
      }
    });
    return removed;
  }

  /** Every history event (round, step, text), the first `limit` of them: a scenario's evidence. */
  static List<Object> historyEvents(final GameData data, final int limit) {
    final List<Object> events = new ArrayList<>();
    forEachEvent((TreeNode) data.getHistory().getRoot(), 0, "", (round, step, text) -> {
      if (events.size() < limit) {
        final Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("round", round);
        entry.put("step", step);
        entry.put("event", text);
        events.add(entry);
      }
    });
    return events;
  }

  /** What is done with one history event: its round, the step it was written in, its text. */
  private interface EventVisitor {
    void visit(int round, String step, String text);
  }

  private static void forEachEvent(final TreeNode node, final int round, final String step,
      final EventVisitor visitor) {
    int nodeRound = round;
    String nodeStep = step;
    if (node instanceof Round) {
      nodeRound = ((Round) node).getRoundNo();
    } else if (node instanceof Step) {
      nodeStep = ((Step) node).getStepName();
    } else if (node instanceof Event && ((Event) node).getDescription() != null) {
      visitor.visit(nodeRound, nodeStep, ((Event) node).getDescription());
    } else if (node instanceof EventChild && ((EventChild) node).getRenderingData() instanceof DiceRoll) {
      visitor.visit(nodeRound, nodeStep, diceText((EventChild) node));
    }
    final Enumeration<? extends TreeNode> children = node.children();
    while (children.hasMoreElements()) {
      forEachEvent(children.nextElement(), nodeRound, nodeStep, visitor);
    }
  }

  /**
   * A roll of a battle as the client's dice panel shows it: the engine's line ("Germans roll dice
   * for 3 infantry in France, round 2 : 4,1,6") and the strength each die was rolled at, "(rolled
   * at 2)" when all share one, so a scenario can expect a unit's attack without expecting dice.
   */
  private static String diceText(final EventChild roll) {
    final DiceRoll dice = (DiceRoll) roll.getRenderingData();
    final Set<Integer> strengths = new TreeSet<>();
    final List<String> each = new ArrayList<>();
    for (int i = 0; i < dice.size(); i++) {
      final int strength = rolledAt(dice.getDie(i));
      strengths.add(strength);
      each.add(String.valueOf(strength));
    }
    final String at = strengths.size() == 1 ? strengths.iterator().next().toString() : String.join(",", each);
    return roll.toString() + " (rolled at " + at + ")";
  }

  /** Die.getRolledAt is package-private in 1.9. */
  private static int rolledAt(final Die die) {
    try {
      return (Integer) Reflection.invokePrivate(die, "getRolledAt");
    } catch (final ReflectiveOperationException e) {
      throw new IllegalStateException("1.9's Die has no getRolledAt", e);
    }
  }

  /** Who won, as the engine's end-of-round delegate recorded it; null while nobody has. */
  static List<String> winners(final GameData data) {
    for (final IDelegate delegate : data.getDelegates()) {
      if (delegate instanceof EndRoundDelegate && ((EndRoundDelegate) delegate).getWinners() != null
          && !((EndRoundDelegate) delegate).getWinners().isEmpty()) { // 2.x: empty, not null, while nobody has won
        final List<String> names = new ArrayList<>();
        for (final GamePlayer winner : ((EndRoundDelegate) delegate).getWinners()) {
          names.add(winner.getName());
        }
        return names;
      }
    }
    return null;
  }

  /** Per territory: its owner and the units on it, by owner and type (scenario expectations read these). */
  static Map<String, Object> territoryStates(final GameData data) {
    final Map<String, Object> states = new TreeMap<>();
    for (final Territory territory : data.getMap().getTerritories()) {
      final Map<String, Map<String, Integer>> units = new TreeMap<>();
      for (final Unit unit : territory.getUnits()) {
        units.computeIfAbsent(unit.getOwner().getName(), owner -> new TreeMap<>())
            .merge(unit.getType().getName(), 1, Integer::sum);
      }
      final Map<String, Object> state = new LinkedHashMap<>();
      state.put("owner", territory.getOwner() == null ? null : territory.getOwner().getName());
      state.put("units", units);
      states.put(territory.getName(), state);
    }
    return states;
  }

  /** Every pair of players with the name of the relationship type between them. */
  static List<Object> relationships(final GameData data) {
    final List<Object> pairs = new ArrayList<>();
    final List<GamePlayer> players = data.getPlayerList().getPlayers();
    for (int i = 0; i < players.size(); i++) {
      for (int j = i + 1; j < players.size(); j++) {
        final List<Object> pair = new ArrayList<>();
        pair.add(players.get(i).getName());
        pair.add(players.get(j).getName());
        pair.add(data.getRelationshipTracker().getRelationshipType(players.get(i), players.get(j)).getName());
        pairs.add(pair);
      }
    }
    return pairs;
  }

  /** The switch of every condition attachment, by attachment name. */
  static Map<String, Object> switches(final GameData data) {
    final Map<String, Object> switches = new TreeMap<>();
    for (final Tuple<IAttachment, List<Tuple<String, String>>> attachment : data.getAttachmentOrderAndValues()) {
      if (attachment.getFirst() instanceof AbstractRulesAttachment) {
        switches.put(attachment.getFirst().getName(), switchOf((AbstractRulesAttachment) attachment.getFirst()));
      }
    }
    return switches;
  }

  /** 2.x keeps a condition's switch private (its property "switch" reads it); 1.9 had a getter. */
  private static Object switchOf(final AbstractRulesAttachment attachment) {
    try {
      return Reflection.invokePrivate(attachment, "getSwitch");
    } catch (final ReflectiveOperationException e) {
      return attachment.getProperty("switch").map(property -> property.getValue()).orElse(null);
    }
  }

  /** Per player: resources, territories owned, units on the map and units not yet placed, by type. */
  static List<Object> playerStates(final GameData data) {
    final List<Object> states = new ArrayList<>();
    for (final GamePlayer player : data.getPlayerList().getPlayers()) {
      final Map<String, Object> resources = new LinkedHashMap<>();
      for (final Resource resource : data.getResourceList().getResources()) {
        resources.put(resource.getName(), player.getResources().getQuantity(resource));
      }
      int territories = 0;
      final Map<String, Integer> units = new TreeMap<>();
      for (final Territory territory : data.getMap().getTerritories()) {
        if (player.equals(territory.getOwner())) {
          territories++;
        }
        for (final Unit unit : territory.getUnits()) {
          if (player.equals(unit.getOwner())) {
            units.merge(unit.getType().getName(), 1, Integer::sum);
          }
        }
      }
      final Map<String, Integer> unplaced = new TreeMap<>();
      for (final Unit unit : player.getUnits()) {
        unplaced.merge(unit.getType().getName(), 1, Integer::sum);
      }
      final Map<String, Object> state = new LinkedHashMap<>();
      state.put("name", player.getName());
      state.put("resources", resources);
      state.put("territories", territories);
      state.put("units", units);
      state.put("unplaced_units", unplaced);
      states.add(state);
    }
    return states;
  }
}
