/**
 * A write that has not reached the server yet: a small clock, never a tick (a tick would say it left). Used
 * by chat messages still 'sending' and by confessions still being posted.
 */
export function PendingClock({ label, className = '' }: { label: string; className?: string }) {
  return (
    <span className={`pending-clock ${className}`.trim()} role="img" aria-label={label} title={label}>
      <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" data-icon="clock">
        <circle cx="6" cy="6" r="4.7" fill="none" stroke="currentColor" strokeWidth="1.3" />
        <path
          d="M6 3.4V6l1.8 1.2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.3"
          strokeLinecap="round"
        />
      </svg>
    </span>
  );
}
