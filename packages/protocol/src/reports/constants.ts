/**
 * Reports (issue 13, "Safety"): why a student reports someone, what an admin decides, and the limits the
 * server enforces. Beyond the spec (DESIGN, Safety).
 */

export const REPORT_REASONS = ['harassment', 'nudity', 'hate', 'spam', 'underage', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The dialog's labels, in the order of REPORT_REASONS. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  harassment: 'Harassment or bullying',
  nudity: 'Nudity or sexual content',
  hate: 'Hate speech',
  spam: 'Spam or scam',
  underage: 'May be under 18',
  other: 'Something else',
};

/** Where the report was made from. */
export const REPORT_CONTEXT_KINDS = ['random_room', 'chat', 'call', 'friend'] as const;
export type ReportContextKind = (typeof REPORT_CONTEXT_KINDS)[number];

export const REPORT_CONTEXT_LABELS: Record<ReportContextKind, string> = {
  random_room: 'Random talk room',
  chat: 'Direct chat',
  call: 'Call',
  friend: 'Friends list',
};

export const REPORT_STATUSES = ['open', 'upheld', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** An admin's decision. Every decision but `dismiss` upholds the report. */
export const REPORT_DECISIONS = ['warn', 'suspend_random', 'suspend_account', 'dismiss'] as const;
export type ReportDecisionKind = (typeof REPORT_DECISIONS)[number];

export const REPORT_DECISION_LABELS: Record<ReportDecisionKind, string> = {
  warn: 'Warned',
  suspend_random: 'Random talk suspended',
  suspend_account: 'Account suspended',
  dismiss: 'Dismissed',
};

export const REPORT = {
  noteMax: 500,
  /** Decision notes are for admins only. */
  decisionNoteMax: 500,
  /** Reports one student may file an hour (every context together). */
  perHour: 10,
  /** The last relayed messages of a text room kept with its report. */
  evidenceMessages: 50,
  /** One evidence message's text is cut to this length. */
  evidenceTextMax: 4000,
  suspendRandomDays: { min: 1, max: 90 },
  suspendAccountDays: { min: 1, max: 365 },
  /**
   * Automatic hold on random talk until an admin reviews: this many distinct reporters with open reports
   * within `openWindowHours`, or with upheld reports within `upheldWindowDays`.
   */
  autoHoldReporters: 3,
  openWindowHours: 24,
  upheldWindowDays: 30,
  /** The admin queue's page. */
  pageMax: 100,
  pageDefault: 20,
} as const;

/** A permanent account suspension is stored as this far-future instant. */
export const PERMANENT_SUSPENSION_UNTIL = '9999-12-31T23:59:59.999Z';

export function isPermanentSuspension(until: string | null | undefined): boolean {
  return until === PERMANENT_SUSPENSION_UNTIL;
}
