import type { Selectable } from 'kysely';
import type { DocumentsTable, UploadIntentsTable } from '../../lib/db/schema';

/** The verification tables' rows as the module reads them (migration 0014). */

/** A signed document upload handed out. `uploaded_size`: NULL until the PUT, -1 while it is being stored. */
export type IntentRow = Selectable<UploadIntentsTable>;

/** A submission. `client_recognized` and `server_check` are JSON. */
export type DocumentRow = Selectable<DocumentsTable>;

/** A history entry with its actor's name (NULL when the actor's account is gone). */
export interface DecisionRow {
  id: string;
  user_id: string;
  action: 'submit' | 'verify' | 'reject' | 'exempt';
  reason: string | null;
  from_status: string | null;
  to_status: string;
  created_at: string;
  actor_id: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
}

export interface StatusCountRow {
  document_status: string;
  n: number;
}
