package tripleagen.harness.current;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.NamedAttachable;
import games.strategy.engine.data.GamePlayer;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.MoveDescription;
import games.strategy.engine.player.PlayerBridge;
import games.strategy.engine.data.GameState;
import games.strategy.triplea.util.TransportUtils;
import org.triplea.ai.does.nothing.DoesNothingAi;
import games.strategy.engine.framework.startup.ui.PlayerTypes;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.UserActionDelegate;
import games.strategy.triplea.delegate.remote.IAbstractForumPosterDelegate;
import games.strategy.triplea.delegate.remote.IAbstractPlaceDelegate;
import games.strategy.triplea.delegate.remote.IMoveDelegate;
import games.strategy.triplea.delegate.remote.IPoliticsDelegate;
import games.strategy.triplea.delegate.remote.IPurchaseDelegate;
import games.strategy.triplea.delegate.remote.IUserActionDelegate;
import org.triplea.java.collections.IntegerMap;
import tripleagen.harness.Script;
import tripleagen.harness.alike.ScriptedTurn;

/**
 * A player of a scenario run that does nothing except what the scenario scripts: in its politics
 * steps it attempts the named political actions, in its user-actions steps the named user actions
 * (each where the game offers it then), it buys, places and moves the scripted units (or, without
 * a script for those, buys and places as 1.9's do-nothing AI does, and moves nothing), and it accepts every action another player asks
 * it to agree to. The engine's AIs never make some choices (a declaration of war, a diplomatic
 * step, a special action, a purchase a rule limits) that a rule hangs on. What it cannot do is
 * noted in the run's report (Script.Notes).
 */
final class ScriptedPlayer extends DoesNothingAi {
  private final Script script;
  private final Script.Notes notes;
  // An idle player buys nothing but what it is scripted to and keeps its money at the end of its
  // turn, where 1.9's do-nothing AI buys as the easy AI does and then throws its money away.
  private final boolean idle;
  private final ScriptedTurn turn;

  ScriptedPlayer(final String name, final Script script, final Script.Notes notes, final boolean idle) {
    super(name, PlayerTypes.DOES_NOTHING_PLAYER_LABEL);
    this.script = script;
    this.notes = notes;
    this.turn = new ScriptedTurn(name, notes, this::getGameData);
    this.idle = idle;
  }

  @Override
  protected void endTurn(final IAbstractForumPosterDelegate delegate, final GamePlayer player) {
    if (!idle) {
      super.endTurn(delegate, player);
    }
  }

  @Override
  public void politicalActions() {
    turn.visited();
    final IPoliticsDelegate politics = (IPoliticsDelegate) getPlayerBridge().getRemoteDelegate();
    turn.attemptEach(script.politicalActions, politics::getValidActions, politics::attemptAction);
  }

  /** The scripted purchase instead of the easy AI's (without one, it buys as 1.9's do-nothing AI does). */
  @Override
  protected void purchase(final boolean bid, final int pusToSpend, final IPurchaseDelegate delegate,
      final GameData data, final GamePlayer player) {
    if (script.purchases.isEmpty() || bid) {
      if (!idle) {
        super.purchase(bid, pusToSpend, delegate, data, player);
      }
      return;
    }
    final IntegerMap<ProductionRule> bought = new IntegerMap<>();
    for (final Map.Entry<String, Integer> wanted : script.purchases.entrySet()) {
      final ProductionRule rule = ruleFor(player, wanted.getKey());
      if (rule == null) {
        notes.lines.add(getName() + " has no production rule for " + wanted.getKey() + turn.where());
      } else {
        bought.add(rule, wanted.getValue());
      }
    }
    final String refused = bought.isEmpty() ? null : delegate.purchase(bought);
    if (refused != null) {
      notes.lines.add(getName() + " could not buy " + script.purchases + turn.where() + ": " + refused);
    }
  }

  /**
   * The frontier's rule that makes exactly one unit of the type, or one of the resource (a rule may sell
   * a resource, e.g. kamikaze tokens).
   */
  private static ProductionRule ruleFor(final GamePlayer player, final String unitTypeOrResource) {
    if (player.getProductionFrontier() == null) {
      return null;
    }
    for (final ProductionRule rule : player.getProductionFrontier().getRules()) {
      final IntegerMap<NamedAttachable> results = rule.getResults();
      if (results.size() != 1 || results.totalValues() != 1) {
        continue;
      }
      final NamedAttachable result = results.keySet().iterator().next();
      if (result.getName().equals(unitTypeOrResource) && (result instanceof UnitType || result instanceof Resource)) {
        return rule;
      }
    }
    return null;
  }

  /** The scripted placements instead of the easy AI's; what the engine refuses is noted, the rest stays in hand. */
  @Override
  protected void place(final boolean bid, final IAbstractPlaceDelegate delegate, final GameState state,
      final GamePlayer player) {
    if (script.placements.isEmpty() || bid) {
      super.place(bid, delegate, state, player);
      return;
    }
    final GameData data = getGameData();
    for (final Map.Entry<String, Map<String, Integer>> entry : script.placements.entrySet()) {
      final Territory territory = data.getMap().getTerritoryOrNull(entry.getKey());
      for (final Map.Entry<String, Integer> wanted : entry.getValue().entrySet()) {
        final UnitType type = data.getUnitTypeList().getUnitType(wanted.getKey()).orElse(null);
        final List<Unit> units = new ArrayList<>();
        for (final Unit unit : player.getUnits()) {
          if (units.size() < wanted.getValue() && unit.getType().equals(type)) {
            units.add(unit);
          }
        }
        final String what = wanted.getValue() + " " + wanted.getKey() + " in " + entry.getKey();
        if (territory == null || units.size() < wanted.getValue()) {
          notes.lines.add(getName() + " has not " + what + " to place" + turn.where() + " (in hand: " + units.size() + ")");
          continue;
        }
        final String refused = delegate.placeUnits(units, territory, IAbstractPlaceDelegate.BidMode.NOT_BID).orElse(null);
        if (refused != null) {
          notes.lines.add(getName() + " could not place " + what + turn.where() + ": " + refused);
        }
      }
    }
  }

  /** The scripted moves of this phase (without any, it moves nothing, as 1.9's do-nothing AI). */
  @Override
  protected void move(final boolean nonCombat, final IMoveDelegate delegate, final GameData data, final GamePlayer player) {
    for (final Script.Move move : script.moves) {
      if (move.nonCombat != nonCombat) {
        continue;
      }
      final List<Territory> path = new ArrayList<>();
      for (final String name : move.path) {
        path.add(data.getMap().getTerritoryOrNull(name));
      }
      final List<Unit> units = new ArrayList<>();
      boolean enough = true;
      for (final Map.Entry<String, Integer> wanted : move.units.entrySet()) {
        int found = 0;
        for (final Unit unit : path.get(0).getUnits()) {
          if (found < wanted.getValue() && unit.getOwner().equals(player) && unit.getType().getName().equals(wanted.getKey())) {
            units.add(unit);
            found++;
          }
        }
        enough &= found == wanted.getValue();
      }
      if (!enough) {
        notes.lines.add(getName() + " has not " + move.describe() + " to move" + turn.where());
        continue;
      }
      final Route route = new Route(path);
      final Map<Unit, Collection<Unit>> airborne = airTransportLoads(units);
      final List<Unit> ships = shipsToBoard(route, units, player);
      // 2.x wants each boarding land unit's transport named; TransportUtils picks them as its move
      // panel does, and like the panel names none when nothing boards (an unload finds its own).
      final Map<Unit, Unit> boarding = ships.isEmpty() ? Map.of() : TransportUtils.mapTransports(route, units, ships);
      final String refused = delegate.performMove(new MoveDescription(units, route, boarding, airborne)).orElse(null);
      if (refused != null) {
        notes.lines.add(getName() + " could not move " + move.describe() + turn.where() + ": " + refused);
      }
    }
  }

  /**
   * Land units that step from land into a sea zone board the player's transports there, as the
   * client's move panel offers: the engine then chooses which transport takes which unit.
   */
  private static List<Unit> shipsToBoard(final Route route, final List<Unit> units, final GamePlayer player) {
    final List<Unit> ships = new ArrayList<>();
    final boolean boarding = route.getSteps().size() > 0 && !route.getStart().isWater() && route.getSteps().get(0).isWater();
    if (boarding && units.stream().anyMatch(unit -> !unitAttachment(unit).isSea() && !unitAttachment(unit).isAir())) {
      for (final Unit unit : route.getSteps().get(0).getUnits()) {
        if (unit.getOwner().equals(player) && unitAttachment(unit).isSea() && unitAttachment(unit).getTransportCapacity() > 0) {
          ships.add(unit);
        }
      }
    }
    return ships;
  }

  /**
   * Which moved land units each moved air transport carries (paratroopers): as many as fit its
   * capacity, in the order the script lists them. The engine moves a unit it is told an air
   * transport carries with that transport.
   */
  private static Map<Unit, Collection<Unit>> airTransportLoads(final List<Unit> units) {
    final Map<Unit, Collection<Unit>> loads = new LinkedHashMap<>();
    final List<Unit> waiting = new ArrayList<>();
    for (final Unit unit : units) {
      if (unitAttachment(unit).isAirTransportable() && !unitAttachment(unit).isAir() && !unitAttachment(unit).isSea()) {
        waiting.add(unit);
      }
    }
    for (final Unit carrier : units) {
      final UnitAttachment carrierType = unitAttachment(carrier);
      if (!carrierType.isAirTransport()) {
        continue;
      }
      int room = carrierType.getTransportCapacity();
      final List<Unit> load = new ArrayList<>();
      for (final Iterator<Unit> it = waiting.iterator(); it.hasNext();) {
        final Unit unit = it.next();
        if (unitAttachment(unit).getTransportCost() <= room) {
          room -= unitAttachment(unit).getTransportCost();
          load.add(unit);
          it.remove();
        }
      }
      if (!load.isEmpty()) {
        loads.put(carrier, load);
      }
    }
    return loads;
  }

  private static UnitAttachment unitAttachment(final Unit unit) {
    return unit.getType().getUnitAttachment();
  }

  /** Attempts the scripted user actions the game offers now (in each of the player's user-actions
   *  steps: the condition of one may only hold in a later one). */
  private void userActions(final IUserActionDelegate delegate) {
    turn.visited();
    turn.attemptEach(script.userActions, delegate::getValidActions, delegate::attemptAction);
  }

  /*
   * 2.x's AbstractAi.start is final and ignores user-actions steps, so there is no method to
   * override for them. Every start of a step first asks for the player's bridge (AbstractBasePlayer
   * .start waits until its step name matches): the first such request in each of this player's
   * user-actions steps takes the scripted actions, in the player's own call while the step's
   * delegate is active. userActions marks the step visited first, so its own requests pass through.
   */
  @Override
  public PlayerBridge getPlayerBridge() {
    final PlayerBridge bridge = super.getPlayerBridge();
    if (bridge == null || script.userActions.isEmpty()) {
      return bridge;
    }
    final GameData data = bridge.getGameData();
    final GameStep step = data.getSequence().getStep();
    if (step != null && step.getDelegate() instanceof UserActionDelegate && getGamePlayer() != null
        && getGamePlayer().equals(step.getPlayerId())
        && !notes.wasVisited(data.getSequence().getRound(), step.getName())) {
      userActions((IUserActionDelegate) bridge.getRemoteDelegate());
    }
    return bridge;
  }

  @Override
  public boolean acceptAction(final GamePlayer playerSendingProposal, final String acceptanceQuestion,
      final boolean politics) {
    return true;
  }
}
