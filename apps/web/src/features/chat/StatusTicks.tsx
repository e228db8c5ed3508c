import type { MessageStatus } from '@campus/protocol';
import { PendingClock } from './PendingClock';

const LABELS: Partial<Record<MessageStatus, string>> = {
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
};

/**
 * A clock while sending (the message has not reached the server: it may be queued offline), one check for
 * sent, a grey double check for delivered, a blue one for read.
 */
export function StatusTicks({ status }: { status: MessageStatus }) {
  const label = LABELS[status];
  if (!label) return null;
  if (status === 'sending') return <PendingClock label={label} className="ticks ticks--sending" />;
  const double = status === 'delivered' || status === 'read';
  return (
    <span className={`ticks ticks--${status}`} role="img" aria-label={label} title={label}>
      <svg
        width={double ? 18 : 12}
        height="12"
        viewBox={double ? '0 0 18 12' : '0 0 12 12'}
        aria-hidden="true"
        data-icon={double ? 'double-tick' : 'tick'}
      >
        <path d="M1 6.5l3 3L11 2" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        {double ? (
          <path
            d="M7 9.5l0.5 0.5L15 2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
          />
        ) : null}
      </svg>
    </span>
  );
}
