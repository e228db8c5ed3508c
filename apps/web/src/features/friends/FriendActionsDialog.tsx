import { useState } from 'react';
import { REPORT_MSG, type UserRef } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { writeBlockUser } from '@campus/sync';
import { ReportUserDialog } from '../safety/ReportUserDialog';
import { useSync } from '../sync/sync-context';
import { fullName } from './friend-list';
import { unfriend } from './friends-api';

type Step = 'choose' | 'unfriend' | 'block' | 'report';

/**
 * The row's menu as a dialog: choose Unfriend or Block, then confirm, since both remove the friend at once;
 * or Report, whose dialog blocks too unless unticked. Block goes through the outbox (works offline);
 * Unfriend and Report are REST calls, so their failures are shown in their dialogs.
 */
export function FriendActionsDialog({ friend, onClose }: { friend: UserRef; onClose(): void }) {
  const api = useApi();
  const client = useSync();
  const [step, setStep] = useState<Step>('choose');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = fullName(friend);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      if (step === 'block') await client.run(writeBlockUser, friend);
      else {
        await unfriend(api, friend.id);
        // The server's friendship_changed removes the row too; reloading covers a connection not yet live.
        await client.loadFriends().catch(() => undefined);
      }
      onClose();
    } catch (e) {
      setError(failureText(e, 'Could not remove friend', 'No connection. Try again.'));
      setBusy(false);
    }
  };

  if (step === 'report')
    return <ReportUserDialog name={name} context={{ kind: 'friend', userId: friend.id }} onClose={onClose} />;

  if (step === 'choose') {
    return (
      <Dialog title={name} onClose={onClose} size="narrow">
        <div className="friend-actions">
          <button type="button" className="button button--secondary" onClick={() => setStep('report')}>
            {REPORT_MSG.report}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setStep('unfriend')}>
            Unfriend
          </button>
          <button type="button" className="button button--danger" onClick={() => setStep('block')}>
            Block
          </button>
        </div>
      </Dialog>
    );
  }

  const question =
    step === 'block'
      ? `Block ${name}? They will not be able to message, call or send you friend requests.`
      : `Remove ${name} from your friends?`;
  return (
    <Dialog
      title={step === 'block' ? 'Block user' : 'Unfriend'}
      onClose={onClose}
      role="alertdialog"
      describedBy="friend-action-question"
      size="narrow"
    >
      <p id="friend-action-question">{question}</p>
      {error ? (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="friend-actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          onClick={() => void confirm()}
        >
          {step === 'block' ? 'Block' : 'Unfriend'}
        </button>
      </div>
    </Dialog>
  );
}
