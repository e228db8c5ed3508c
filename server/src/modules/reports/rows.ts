import type { Selectable } from 'kysely';
import type { ModerationLogTable, ReportsTable, UserRestrictionsTable } from '../../lib/db/schema';

/** The reports module's rows as it reads them (migration 0018). */

export type ReportRow = Selectable<ReportsTable>;
export type RestrictionRow = Selectable<UserRestrictionsTable>;

/** A report with both people's public cards (the reporter's NULL once their account is gone). */
export interface ReportListRow extends ReportRow {
  reporter_first_name: string | null;
  reporter_last_name: string | null;
  reporter_picture: string | null;
  reported_first_name: string;
  reported_last_name: string;
  reported_picture: string | null;
  admin_first_name: string | null;
  admin_last_name: string | null;
  /** How many messages `evidence` holds (the list does not carry the evidence itself). */
  evidence_count: number;
}

export interface ReportedCountsRow {
  reported_id: string;
  reports: number;
  upheld: number;
}

export interface ModerationLogRow extends Selectable<ModerationLogTable> {
  actor_first_name: string | null;
  actor_last_name: string | null;
}
