import { useId } from 'react';

/** The Campus Talk mark: a speech bubble on the brand gradient. Decorative; the name is always beside it. */
export function Logo({ size = 32 }: { size?: number }) {
  const gradient = useId();
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#a855f7" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={`url(#${gradient})`} />
      <path
        d="M18 20h28a6 6 0 0 1 6 6v12a6 6 0 0 1-6 6H30l-9 7v-7h-3a6 6 0 0 1-6-6V26a6 6 0 0 1 6-6z"
        fill="#fff"
      />
      <circle cx="25" cy="32" r="3" fill="#6366f1" />
      <circle cx="32" cy="32" r="3" fill="#7c5cf4" />
      <circle cx="39" cy="32" r="3" fill="#a855f7" />
    </svg>
  );
}
