import { useState } from 'react';
import { FRIEND_MSG, REPORT_MSG, type UserRef } from '@campus/protocol';
import { writeBlockUser, writeUnblockUser } from '@campus/sync';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { useLiveRows } from '../../lib/useLiveRows';
import { ReportUserDialog } from '../safety/ReportUserDialog';
import { useSync } from '../sync/sync-context';
import { fullName } from './friend-list';
import { sendFriendRequest } from './friend-request-api';
import './friends.css';

type Sent = 'idle' | 'sending' | 'sent';

/** A direct chat header's Add Friend (or 'Friends') and its menu with Report and Block / Unblock. */
export function ChatFriendActions({ partner }: { partner: UserRef }) {
  const api = useApi();
  const client = useSync();
  const state = useLiveRows(
    async () => ({
      friend: (await client.db.friends.get(partner.id)) !== undefined,
      blocked: (await client.db.blocks.get(partner.id)) !== undefined,
    }),
    [client, partner.id],
  );
  const [sent, setSent] = useState<Sent>('idle');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [menu, setMenu] = useState<'closed' | 'open' | 'confirmBlock' | 'report'>('closed');

  const add = async () => {
    setSent('sending');
    setMessage(null);
    try {
      const answer = await sendFriendRequest(api, partner.id);
      setSent('sent');
      setMessage({ text: answer.message || FRIEND_MSG.sent, error: false });
      // Theirs was accepted: the friend row comes with the change; a reload covers a connection still down.
      if (answer.outcome === 'accepted') await client.loadFriends().catch(() => undefined);
    } catch (error) {
      setSent('idle');
      setMessage({ text: failureText(error, FRIEND_MSG.sendFailed, FRIEND_MSG.sendError), error: true });
    }
  };

  const block = async () => {
    setMenu('closed');
    await client.run(writeBlockUser, partner);
  };
  const unblock = async () => {
    setMenu('closed');
    await client.run(writeUnblockUser, partner.id);
  };

  if (!state) return null;
  const name = fullName(partner);
  return (
    <div className="chat-header__actions">
      {state.friend ? (
        <span className="chat-header__friends">Friends</span>
      ) : state.blocked ? null : (
        <button
          type="button"
          className="button button--secondary"
          disabled={sent !== 'idle'}
          onClick={() => void add()}
        >
          {sent === 'sent' ? 'Request sent' : 'Add Friend'}
        </button>
      )}
      {message ? (
        // The button already reads 'Request sent'; the server's text is for screen readers, an error for all.
        <span
          className={message.error ? 'chat-header__error' : 'visually-hidden'}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </span>
      ) : null}
      <button
        type="button"
        className="icon-button"
        aria-label="More chat actions"
        aria-haspopup="dialog"
        onClick={() => setMenu('open')}
      >
        <Icon name="menu" />
      </button>
      {menu === 'open' ? (
        <Dialog title={name} onClose={() => setMenu('closed')} size="narrow">
          <div className="friend-actions">
            <button type="button" className="button button--secondary" onClick={() => setMenu('report')}>
              {REPORT_MSG.report}
            </button>
            {state.blocked ? (
              <button type="button" className="button button--secondary" onClick={() => void unblock()}>
                Unblock
              </button>
            ) : (
              <button type="button" className="button button--danger" onClick={() => setMenu('confirmBlock')}>
                Block
              </button>
            )}
          </div>
        </Dialog>
      ) : null}
      {menu === 'report' ? (
        <ReportUserDialog
          name={name}
          context={{ kind: 'chat', userId: partner.id }}
          onClose={() => setMenu('closed')}
        />
      ) : null}
      {menu === 'confirmBlock' ? (
        <Dialog
          title="Block user"
          onClose={() => setMenu('closed')}
          role="alertdialog"
          describedBy="chat-block-question"
          size="narrow"
        >
          <p id="chat-block-question">
            Block {name}? They will not be able to message, call or send you friend requests.
          </p>
          <div className="friend-actions">
            <button type="button" className="button button--secondary" onClick={() => setMenu('closed')}>
              Cancel
            </button>
            <button type="button" className="button button--danger" onClick={() => void block()}>
              Block
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
