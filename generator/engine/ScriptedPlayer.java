package tripleagen.harness;

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
  private final List<String> notOffered;
  private final Set<String> stepsVisited;

  /** notOffered: where each scripted action the game did not offer then is written (the report's
   *  "not_offered"); a rule that forbids an action is shown by the action not being offered.
   *  stepsVisited: "round:step" of each step this player acted in (the engine skips a politics or
   *  user-actions step that offers nothing, and PlayMode notes those from this set). */
  ScriptedPlayer(final String name, final List<String> politicalActions, final List<String> userActions,
      final List<String> notOffered, final Set<String> stepsVisited) {
    super(name, TripleA.DOESNOTHINGAI_COMPUTER_PLAYER_TYPE);
    this.politicalActions = politicalActions;
    this.userActions = userActions;
    this.notOffered = notOffered;
    this.stepsVisited = stepsVisited;
  }

  static String notOfferedNote(final String player, final String action, final int round, final String step) {
    return player + " was not offered " + action + " in round " + round + ", step " + step;
  }

  private void recordNotOffered(final String action) {
    final GameData data = getGameData();
    notOffered.add(notOfferedNote(getName(), action, data.getSequence().getRound(),
        data.getSequence().getStep().getName()));
  }

  private void visited() {
    final GameData data = getGameData();
    stepsVisited.add(data.getSequence().getRound() + ":" + data.getSequence().getStep().getName());
  }

  @Override
  public void politicalActions() {
    visited();
    final IPoliticsDelegate politics = (IPoliticsDelegate) getPlayerBridge().getRemoteDelegate();
    for (final String name : politicalActions) {
      PoliticalActionAttachment chosen = null;
      for (final PoliticalActionAttachment action : politics.getValidActions()) {
        if (action.getName().equals(name)) {
          chosen = action;
        }
      }
      if (chosen == null) {
        recordNotOffered(name);
      } else {
        politics.attemptAction(chosen);
      }
    }
  }

  /** Attempts the scripted user actions the game offers now (in each of the player's user-actions
   *  steps: the condition of one may only hold in a later one). */
  private void userActions(final IUserActionDelegate delegate) {
    visited();
    for (final String name : userActions) {
      UserActionAttachment chosen = null;
      for (final UserActionAttachment action : delegate.getValidActions()) {
        if (action.getName().equals(name)) {
          chosen = action;
        }
      }
      if (chosen == null) {
        recordNotOffered(name);
      } else {
        delegate.attemptAction(chosen);
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
