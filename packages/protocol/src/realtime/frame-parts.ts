import { z } from 'zod';

/** Pieces every feature's frame schemas share. */

/** An entity id as frames carry it (UUIDs, user ids): bounded so a frame cannot smuggle a novel in one. */
export const frameId = z.string().min(1).max(64);

/**
 * Every write is a mutation: `deviceId` names the device (or tab) that created it and `mid` is that
 * device's increasing mutation id. The server applies a (deviceId, mid) at most once and answers `ack` or
 * `message_error` carrying the same pair.
 */
export const mutationFields = {
  deviceId: z.string().min(8).max(64),
  mid: z.number().int().positive(),
};

/** Every change carries the change log's global `seq`. */
export const changeFields = { seq: z.number().int() };

/** Omit that keeps a union a union (plain Omit would merge the members into one shape). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
