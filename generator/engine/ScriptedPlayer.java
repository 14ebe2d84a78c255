package tripleagen.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.gamePlayer.IPlayerBridge;
import games.strategy.engine.message.IRemote;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.ai.weakAI.DoesNothingAI;
import games.strategy.triplea.attachments.PoliticalActionAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.UserActionDelegate;
import games.strategy.triplea.delegate.remote.IPoliticsDelegate;
import games.strategy.triplea.delegate.remote.IUserActionDelegate;

/**
 * A player of a scenario run that does nothing except what the scenario scripts: in its politics
 * steps it attempts the named political actions, in its user-actions steps the named user actions
 * (each where the game offers it then), and it accepts every action another player asks it to agree
 * to. The engine's AIs never make some choices (a declaration of war, a diplomatic step, a special
 * action) that a rule hangs on.
 */
final class ScriptedPlayer extends DoesNothingAI {
  private final List<String> politicalActions;
  private final List<String> userActions;

  ScriptedPlayer(final String name, final List<String> politicalActions, final List<String> userActions) {
    super(name, TripleA.DOESNOTHINGAI_COMPUTER_PLAYER_TYPE);
    this.politicalActions = politicalActions;
    this.userActions = userActions;
  }

  @Override
  public void politicalActions() {
    final IPoliticsDelegate politics = (IPoliticsDelegate) getPlayerBridge().getRemoteDelegate();
    for (final String name : politicalActions) {
      final List<String> valid = new ArrayList<>();
      PoliticalActionAttachment chosen = null;
      for (final PoliticalActionAttachment action : politics.getValidActions()) {
        valid.add(action.getName());
        if (action.getName().equals(name)) {
          chosen = action;
        }
      }
      if (chosen == null) {
        // a scripted choice the game does not offer now is the scenario's mistake: say so
        throw new IllegalStateException("scripted political action " + name + " is not valid for "
            + getName() + " now; valid: " + valid);
      }
      politics.attemptAction(chosen);
    }
  }

  /** Attempts the scripted user actions the game offers now; those it does not offer are left out,
   *  because user actions are offered in every user-actions step and the condition of one may only
   *  hold in a later turn. */
  private void userActions(final IUserActionDelegate delegate) {
    for (final String name : userActions) {
      for (final UserActionAttachment action : delegate.getValidActions()) {
        if (action.getName().equals(name)) {
          delegate.attemptAction(action);
          break;
        }
      }
    }
  }

  /*
   * 1.9's AbstractAI.start is final and ignores user-actions steps, so there is no method to
   * override for them. Every start of a step first asks the player's bridge for the step's name
   * (AbstractBasePlayer.start waits until it matches): the bridge below notices the first such
   * question in each of this player's user-actions steps and takes the scripted actions then, in
   * the player's own thread while the step's delegate is active.
   */
  @Override
  public void initialize(final IPlayerBridge bridge, final PlayerID id) {
    super.initialize(userActions.isEmpty() ? bridge : new UserActionBridge(bridge), id);
  }

  private final class UserActionBridge implements IPlayerBridge {
    private final IPlayerBridge bridge;
    private final Set<String> stepsActedIn = Collections.synchronizedSet(new HashSet<>());

    UserActionBridge(final IPlayerBridge bridge) {
      this.bridge = bridge;
    }

    @Override
    public String getStepName() {
      final String name = bridge.getStepName();
      final GameData data = bridge.getGameData();
      final GameStep step = data.getSequence().getStep();
      if (step != null && name != null && name.equals(step.getName())
          && step.getDelegate() instanceof UserActionDelegate && getPlayerId().equals(step.getPlayerId())
          && stepsActedIn.add(data.getSequence().getRound() + ":" + name)) {
        userActions((IUserActionDelegate) bridge.getRemoteDelegate());
      }
      return name;
    }

    @Override
    public GameData getGameData() {
      return bridge.getGameData();
    }

    @Override
    public IRemote getRemoteDelegate() {
      return bridge.getRemoteDelegate();
    }

    @Override
    public IRemote getRemotePersistentDelegate(final String name) {
      return bridge.getRemotePersistentDelegate(name);
    }

    @Override
    public Properties getStepProperties() {
      return bridge.getStepProperties();
    }

    @Override
    public boolean isGameOver() {
      return bridge.isGameOver();
    }
  }

  @Override
  public boolean acceptAction(final PlayerID playerSendingProposal, final String acceptanceQuestion,
      final boolean politics) {
    return true;
  }
}
