import { z } from 'zod';
import { chatMutationSchemas } from '../chat/frames';
import { confessionMutationSchemas } from '../confessions/frames';
import { friendMutationSchemas } from '../friends/frames';
import { notificationMutationSchemas } from '../notifications/frames';
import type { DistributiveOmit } from './frame-parts';

/**
 * Every mutation of every feature: the one list the types below, the client frame union, and the server's
 * and the client's handler tables are derived from. A feature adds its schemas to its own list
 * (`chatMutationSchemas`, …); a new feature adds its list here. See docs/adding-a-feature.md.
 */
export const mutationSchemas = [
  ...chatMutationSchemas,
  ...confessionMutationSchemas,
  ...notificationMutationSchemas,
  ...friendMutationSchemas,
] as const;

export const mutationFrameSchema = z.discriminatedUnion('type', mutationSchemas);
/** The frames that are mutations: queued in the outbox while offline and acknowledged one by one. */
export type MutationFrame = z.infer<typeof mutationFrameSchema>;
export type MutationType = MutationFrame['type'];
/** The mutation frame of one type. */
export type MutationOf<T extends MutationType> = Extract<MutationFrame, { type: T }>;
/** A mutation as the outbox holds it before `deviceId` and `mid` are assigned. */
export type MutationInput = DistributiveOmit<MutationFrame, 'deviceId' | 'mid'>;

export const MUTATION_TYPES: readonly MutationType[] = mutationSchemas.map(
  (schema) => schema.shape.type.value,
);
const mutationTypes: ReadonlySet<string> = new Set(MUTATION_TYPES);

export function isMutationType(type: string): type is MutationType {
  return mutationTypes.has(type);
}

export function isMutationFrame<F extends { type: string }>(frame: F): frame is Extract<F, MutationFrame> {
  return mutationTypes.has(frame.type);
}
