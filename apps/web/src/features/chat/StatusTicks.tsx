import type { MessageStatus } from '@campus/protocol';

const LABELS: Partial<Record<MessageStatus, string>> = {
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
};

/** One check for sending and sent, a grey double check for delivered, a blue one for read. */
export function StatusTicks({ status }: { status: MessageStatus }) {
  const label = LABELS[status];
  if (!label) return null;
  const double = status === 'delivered' || status === 'read';
  return (
    <span className={`ticks ticks--${status}`} role="img" aria-label={label} title={label}>
      <svg
        width={double ? 18 : 12}
        height="12"
        viewBox={double ? '0 0 18 12' : '0 0 12 12'}
        aria-hidden="true"
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
