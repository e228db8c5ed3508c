import { isPermanentSuspension, REPORT } from './constants';

/** A restriction's end as the student reads it: 'March 12, 2026' (UTC, so server and page agree). */
export function formatRestrictionDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** The report dialog, the server's answers about reports, and the restrictions they lead to. */
export const REPORT_MSG = {
  report: 'Report',
  title: (name: string) => `Report ${name}`,
  question: (name: string) => `Why are you reporting ${name}?`,
  noteLabel: 'Anything else we should know? (optional)',
  alsoBlock: (name: string) => `Also block ${name}`,
  submit: 'Submit report',
  submitting: 'Submitting…',
  cancel: 'Cancel',
  done: 'Done',
  sent: 'Report sent. Thank you for keeping Campus Talk safe.',
  reasonRequired: 'Please choose a reason.',
  noteTooLong: `The note must be at most ${REPORT.noteMax} characters.`,
  failed: 'Could not send the report. Please try again.',
  network: 'No connection. Please try again.',
  tooMany: `You can report at most ${REPORT.perHour} times an hour. Please try again later.`,
  self: 'You cannot report yourself.',
  notFound: 'User not found.',
  /** The admin queue. */
  reportNotFound: 'Report not found.',
  alreadyDecided: 'This report was already decided.',
  ownReport: 'You cannot decide a report about yourself.',
  loadFailed: 'Failed to load reports',
  decisionFailed: 'Failed to save the decision',
  holdCleared: 'Random talk restriction cleared.',
  /** The notification a warned student gets; it never names who reported them. */
  warningTitle: 'A note from the moderators',
  warningBody:
    'A moderator reviewed a report about your conduct and found that it broke the community rules. ' +
    'Please be respectful: further reports may restrict your account.',
  randomSuspendedTitle: 'Random talk paused',
  randomSuspendedBody: (until: string) =>
    `A moderator reviewed a report about your conduct. Random talk is paused for your account until ${formatRestrictionDate(until)}.`,
  /** What random talk answers a restricted student. */
  randomSuspended: (until: string) =>
    `Random talk is paused for your account until ${formatRestrictionDate(until)}.`,
  randomReview: 'Random talk is paused for your account while it is under review.',
  /** Sign-in refused for a suspended account. */
  accountSuspended: (until: string) =>
    isPermanentSuspension(until)
      ? 'Your account has been suspended.'
      : `Your account is suspended until ${formatRestrictionDate(until)}.`,
} as const;

/** The restriction's text for random talk (`randomTalkRestriction` of the server). */
export function randomRestrictionMessage(restriction: {
  until: string | null;
  reason: 'suspended' | 'review';
}) {
  return restriction.reason === 'suspended' && restriction.until
    ? REPORT_MSG.randomSuspended(restriction.until)
    : REPORT_MSG.randomReview;
}
