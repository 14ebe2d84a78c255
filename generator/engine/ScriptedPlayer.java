package tripleagen.harness;

import java.util.ArrayList;
import java.util.List;

import games.strategy.engine.data.PlayerID;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.ai.weakAI.DoesNothingAI;
import games.strategy.triplea.attachments.PoliticalActionAttachment;
import games.strategy.triplea.delegate.remote.IPoliticsDelegate;

/**
 * A player of a scenario run that does nothing except what the scenario scripts: in its politics
 * steps it attempts the named political actions (those valid then), and it accepts every
 * political action another player asks it to agree to. The engine's AIs never make some choices
 * (a declaration of war, a diplomatic step) that a rule hangs on.
 */
final class ScriptedPlayer extends DoesNothingAI {
  private final List<String> actions;

  ScriptedPlayer(final String name, final List<String> actions) {
    super(name, TripleA.DOESNOTHINGAI_COMPUTER_PLAYER_TYPE);
    this.actions = actions;
  }

  @Override
  public void politicalActions() {
    final IPoliticsDelegate politics = (IPoliticsDelegate) getPlayerBridge().getRemoteDelegate();
    for (final String name : actions) {
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

  @Override
  public boolean acceptAction(final PlayerID playerSendingProposal, final String acceptanceQuestion,
      final boolean politics) {
    return true;
  }
}
