import type { ChangesFrame, ServerFrame } from './server-frames';

/**
 * The one place a server frame is built from pre-encoded JSON instead of an object: a pull page joins the
 * change log's stored payloads (each exactly the JSON of a `Change`) without parsing and re-serialising
 * them. Everything else goes out through `encodeServerFrame`. Tested to parse back through the `changes`
 * schema.
 */
export function encodeChangesPage(
  changePayloads: readonly string[],
  cursor: ChangesFrame['cursor'],
  hasMore: ChangesFrame['hasMore'],
): string {
  return `{"type":"changes","changes":[${changePayloads.join(',')}],"cursor":${Math.trunc(cursor)},"hasMore":${hasMore === true}}`;
}

/** A server frame as it goes on the wire. */
export function encodeServerFrame(frame: ServerFrame): string {
  return JSON.stringify(frame);
}
