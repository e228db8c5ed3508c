import { z } from 'zod';
import { callChangeSchemas } from '../calls/frames';
import { chatChangeSchemas } from '../chat/frames';
import { confessionChangeSchemas } from '../confessions/frames';
import { friendChangeSchemas } from '../friends/frames';
import { notificationChangeSchemas } from '../notifications/frames';
import { userChangeSchemas } from '../users/frames';
import type { DistributiveOmit } from './frame-parts';

/**
 * Changes: the persistent events of the server's change log. Each has the log's global `seq`; a client
 * applies them in seq order and keeps the last applied seq as its cursor. Live pushes are exactly these
 * objects sent as frames; a pull answers them in `changes` pages, so catch-up and live share one path.
 * Their names and fields are the spec's realtime events, plus `seq`. Derived from each feature's list.
 */
export const changeSchemas = [
  ...chatChangeSchemas,
  ...confessionChangeSchemas,
  ...notificationChangeSchemas,
  ...userChangeSchemas,
  ...friendChangeSchemas,
  ...callChangeSchemas,
] as const;

export const changeSchema = z.discriminatedUnion('type', changeSchemas);
export type Change = z.infer<typeof changeSchema>;
export type ChangeType = Change['type'];
export type ChangeOf<T extends ChangeType> = Extract<Change, { type: T }>;
/** A change as a feature writes it; the engine gives it its seq. */
export type ChangeDraft = DistributiveOmit<Change, 'seq'>;

export const CHANGE_TYPES: readonly ChangeType[] = changeSchemas.map((schema) => schema.shape.type.value);
const changeTypes: ReadonlySet<string> = new Set(CHANGE_TYPES);

export function isChangeType(type: string): type is ChangeType {
  return changeTypes.has(type);
}
