import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { NOTES } from '@campus/protocol';
import { decodeNotesFrame } from '../src/modules/notes/frame-decoder';
import { MalformedFrame } from '../src/modules/notes/frame-reader';
import {
  awarenessFrame,
  mutate,
  prng,
  realUpdates,
  recordUpdates,
  syncStep1Frame,
  updateFrame,
} from './notes-helpers';

const nothingKnown = () => 0;
const stateOf = (doc: Y.Doc) => (client: number) => Y.getState(doc.store, client);

function refusal(frame: Uint8Array, clockOf = nothingKnown): string | null {
  try {
    decodeNotesFrame(frame, clockOf);
    return null;
  } catch (err) {
    if (err instanceof MalformedFrame) return err.reason;
    throw err;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('decodeNotesFrame', () => {
  it('accepts every frame a real notes client sends', () => {
    const random = prng(7);
    const server = new Y.Doc();
    for (const update of realUpdates(random)) {
      const decoded = decodeNotesFrame(updateFrame(update), stateOf(server));
      expect(decoded.kind).toBe('update');
      Y.applyUpdate(server, update);
    }
    expect(decodeNotesFrame(syncStep1Frame(server), nothingKnown)).toEqual({ kind: 'sync-request' });
    const awareness = new Awareness(new Y.Doc());
    awareness.setLocalState({ user: { name: 'Ana', color: '#ff0000' }, cursor: null });
    const frame = awarenessFrame(encodeAwarenessUpdate(awareness, [awareness.clientID]));
    expect(decodeNotesFrame(frame, nothingKnown)).toMatchObject({
      entries: [{ client: awareness.clientID }],
    });
  });

  it('refuses the 12-byte allocation frame, non-minimal varints, auth and query-awareness', () => {
    const attack = Uint8Array.from([0x00, 0x02, 0x09, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xff, 0xff, 0xff, 0x0f]);
    expect(refusal(attack)).toBe('count exceeds frame');
    const [update] = recordUpdates(new Y.Doc(), (text) => text.insert(0, 'hi'));
    const valid = updateFrame(update!);
    expect(refusal(valid)).toBeNull();
    expect(refusal(Uint8Array.from([0x80, 0x00, ...valid.slice(1)]))).toBe('non-minimal varint');
    expect(refusal(Uint8Array.from([0x00, 0x82, 0x00, ...valid.slice(2)]))).toBe('non-minimal varint');
    expect(refusal(Uint8Array.from([2, 0]))).toBe('unknown message type');
    expect(refusal(Uint8Array.from([3]))).toBe('unknown message type');
    expect(refusal(Uint8Array.from([...valid, 0]))).toBe('trailing bytes');
    expect(refusal(valid.slice(0, -1))).toBe('length exceeds frame');
  });

  it('refuses content a notes text never holds: other roots, sub-documents, nested types', () => {
    const doc = new Y.Doc();
    const other = recordUpdates(doc, () => doc.getText('elsewhere').insert(0, 'x'));
    expect(refusal(updateFrame(other[0]!))).toBe('unknown root type');
    const nested = recordUpdates(doc, () => doc.getText(NOTES.textName).insertEmbed(0, new Y.Map()));
    expect(refusal(updateFrame(nested[0]!))).toBe('content not allowed in notes');
  });

  it('refuses delete ranges out of order, overlapping, or a delete-set client twice (Yjs writes none)', () => {
    /** An update with no structs and the given delete set: [client, [clock, length][]][]. */
    // Every number here is under 128: one varint byte each.
    const deletes = (set: [number, [number, number][]][]) =>
      updateFrame(
        Uint8Array.from([
          0,
          set.length,
          ...set.flatMap(([client, ranges]) => [client, ranges.length, ...ranges.flat()]),
        ]),
      );
    expect(
      refusal(
        deletes([
          [
            7,
            [
              [0, 2],
              [5, 1],
            ],
          ],
        ]),
      ),
    ).toBeNull();
    // The same struct deleted again and again: each range walks it, and none adds anything.
    expect(
      refusal(
        deletes([
          [
            7,
            [
              [0, 2],
              [0, 2],
            ],
          ],
        ]),
      ),
    ).toBe('delete ranges out of order');
    expect(
      refusal(
        deletes([
          [
            7,
            [
              [5, 1],
              [0, 2],
            ],
          ],
        ]),
      ),
    ).toBe('delete ranges out of order');
    expect(
      refusal(
        deletes([
          [
            7,
            [
              [0, 4],
              [2, 4],
            ],
          ],
        ]),
      ),
    ).toBe('delete ranges out of order');
    expect(
      refusal(
        deletes([
          [7, [[0, 1]]],
          [7, [[4, 1]]],
        ]),
      ),
    ).toBe('delete set client repeated');
    // What Yjs itself writes for deletions, merged or not, passes.
    const doc = new Y.Doc();
    const updates = recordUpdates(doc, (text) => {
      text.insert(0, 'abcdefghij');
    });
    updates.push(
      // One transaction: one update whose delete set has three ranges of one client.
      ...recordUpdates(doc, (text) =>
        doc.transact(() => {
          text.delete(8, 1);
          text.delete(1, 2);
          text.delete(4, 1);
        }),
      ),
    );
    for (const update of [...updates, Y.mergeUpdates(updates), Y.encodeStateAsUpdate(doc)])
      expect(refusal(updateFrame(update))).toBeNull();
  });

  it('tells an update with missing dependencies from one that applies', () => {
    const doc = new Y.Doc();
    const [first, second] = recordUpdates(doc, (text) => {
      text.insert(0, 'a');
      text.insert(1, 'b');
    });
    const empty = new Y.Doc();
    expect(decodeNotesFrame(updateFrame(second!), stateOf(empty))).toMatchObject({
      missingDependencies: true,
    });
    expect(decodeNotesFrame(updateFrame(first!), stateOf(empty))).toMatchObject({
      missingDependencies: false,
    });
  });

  it('admits no mutated frame that Yjs would choke on, and predicts every pending update', () => {
    const random = prng(42);
    const base = new Y.Doc();
    const updates = realUpdates(random, 4);
    // The server has the first half; the fuzz mutates all of them.
    for (const update of updates.slice(0, updates.length / 2)) Y.applyUpdate(base, update);
    const snapshot = Y.encodeStateAsUpdate(base);
    const errors = vi.spyOn(console, 'error');
    let admitted = 0;
    for (let i = 0; i < 3000; i++) {
      const frame = mutate(updateFrame(updates[i % updates.length]!), random);
      let decoded;
      try {
        decoded = decodeNotesFrame(frame, stateOf(base));
      } catch (err) {
        expect(err).toBeInstanceOf(MalformedFrame);
        continue;
      }
      if (decoded.kind !== 'update') continue;
      admitted++;
      const doc = new Y.Doc();
      Y.applyUpdate(doc, snapshot);
      // The payload starts after the two type bytes and the length varint.
      const payload = frame.subarray(frame.length - decoded.bytes);
      expect(() => Y.applyUpdate(doc, payload)).not.toThrow();
      if (doc.store.pendingStructs || doc.store.pendingDs) expect(decoded.missingDependencies).toBe(true);
    }
    expect(errors).not.toHaveBeenCalled();
    expect(admitted).toBeGreaterThan(100);
  });
});
