import { useState } from 'react';
import { CALL_MSG, REPORT_MSG, type CallLog } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { ReportUserDialog } from '../safety/ReportUserDialog';
import { useCall } from './call-context';
import { formatDuration, personName } from './call-state';

/** The spec shows these statuses as 'Missed', with duration '--:--'. */
const MISSED: readonly CallLog['status'][] = ['missed', 'no_answer', 'rejected'];

const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? 'Invalid date'
    : date.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
};

/** One call: the other person, which way and what kind, when, Missed or how long, call back, and report. */
export function CallLogRow({ log, selfId }: { log: CallLog; selfId: string }) {
  const { startCall, state } = useCall();
  const [reporting, setReporting] = useState(false);
  const outgoing = log.caller.id === selfId;
  const other = outgoing ? log.callee : log.caller;
  const missed = MISSED.includes(log.status);
  const name = personName(other);
  const direction = outgoing ? 'Outgoing' : 'Incoming';
  const kind = log.callType === 'video' ? 'video' : 'audio';
  const busy = state.phase === 'outgoing' || state.phase === 'incoming' || state.phase === 'active';
  return (
    <li className="call-log" data-testid="call-log-row" data-status={log.status}>
      <Avatar user={other} />
      <div className="call-log__text">
        <span className="call-log__name">{name}</span>
        <span className={`call-log__meta${missed ? ' call-log__meta--missed' : ''}`}>
          <Icon name={missed ? 'phoneMissed' : outgoing ? 'phoneOutgoing' : 'phoneIncoming'} size={16} />
          <Icon name={kind === 'video' ? 'video' : 'phone'} size={16} />
          <span>
            {direction} {kind} call
          </span>
        </span>
        <time className="call-log__time" dateTime={log.startedAt}>
          {when(log.startedAt)}
        </time>
      </div>
      <div className="call-log__result">
        {missed ? <span className="call-log__missed">{CALL_MSG.missed}</span> : null}
        <span className="call-log__duration" data-testid="call-log-duration">
          {missed ? CALL_MSG.noDuration : formatDuration(log.duration)}
        </span>
      </div>
      <button
        type="button"
        className="icon-button"
        aria-label={`Call back ${name} (${kind})`}
        disabled={busy}
        onClick={() => startCall(other, log.callType)}
      >
        <Icon name={kind === 'video' ? 'video' : 'phone'} />
      </button>
      <button
        type="button"
        className="icon-button call-log__report"
        aria-label={`${REPORT_MSG.report} ${name}`}
        aria-haspopup="dialog"
        onClick={() => setReporting(true)}
      >
        <Icon name="flag" size={18} />
      </button>
      {reporting ? (
        <ReportUserDialog
          name={name}
          context={{ kind: 'call', callLogId: log.id, userId: other.id }}
          onClose={() => setReporting(false)}
        />
      ) : null}
    </li>
  );
}
