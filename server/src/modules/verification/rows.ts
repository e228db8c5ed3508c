/** The verification tables' rows as the module reads them (migration 0014). */

/** A signed document upload handed out. `uploaded_size`: NULL until the PUT, -1 while it is being stored. */
export interface IntentRow {
  storage_key: string;
  user_id: string;
  content_type: string;
  /** Epoch ms. */
  expires_at: number;
  uploaded_size: number | null;
}

/** A submission. `client_recognized` and `server_check` are JSON. */
export interface DocumentRow {
  id: string;
  user_id: string;
  storage_key: string;
  content_type: string;
  size: number;
  manual: number;
  client_recognized: string | null;
  server_check: string;
  submitted_at: string;
}

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
