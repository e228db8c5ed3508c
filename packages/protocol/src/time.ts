const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

function toMs(date: Date | string | number): number {
  return date instanceof Date ? date.getTime() : new Date(date).getTime();
}

/** Feed-style relative time: '5s ago', '5m ago', '3h ago', '2d ago'. Future dates read as '0s ago'. */
export function relativeTime(date: Date | string | number, now: number = Date.now()): string {
  const diff = Math.max(0, now - toMs(date));
  if (diff < MINUTE) return `${Math.floor(diff / SECOND)}s ago`;
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h ago`;
  return `${Math.floor(diff / DAY)}d ago`;
}

/**
 * The notifications panel's own scale: now (under 1 minute), m, h, d (under 7 days),
 * w (under 4 weeks), mo (under 12 months), then y.
 */
export function panelRelativeTime(date: Date | string | number, now: number = Date.now()): string {
  const diff = Math.max(0, now - toMs(date));
  if (diff < MINUTE) return 'now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h`;
  if (diff < WEEK) return `${Math.floor(diff / DAY)}d`;
  const weeks = Math.floor(diff / WEEK);
  if (weeks < 4) return `${weeks}w`;
  const months = monthsBetween(toMs(date), now);
  if (months < 12) return `${Math.max(1, months)}mo`;
  return `${Math.floor(months / 12)}y`;
}

/** Whole calendar months between two instants (never negative). */
function monthsBetween(fromMs: number, toMsValue: number): number {
  const a = new Date(fromMs);
  const b = new Date(toMsValue);
  let months = (b.getFullYear() - a.getFullYear()) * 12 + (b.getMonth() - a.getMonth());
  if (b.getDate() < a.getDate()) months -= 1;
  return Math.max(0, months);
}

/** Count badges show 99+ above 99. */
export function formatBadgeCount(count: number): string {
  if (count <= 0) return '';
  return count > 99 ? '99+' : String(count);
}
