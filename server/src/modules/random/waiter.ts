import type { RandomPartner } from '@campus/protocol';
import type { Session } from '../../realtime/registry';

/** What a wait holds besides the matchmaker's data: the connection that queued, and the student's card. */
export interface Waiter {
  readonly session: Session;
  readonly card: RandomPartner;
}
