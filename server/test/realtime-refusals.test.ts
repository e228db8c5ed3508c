import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';
import { rowOf } from './support/sql';

let server: TestServer;
let ann: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
});
afterAll(() => server.close());

describe('a refusal thrown by a feature handler', () => {
  it('answers message_error with its code and text, and a resend of the same (deviceId, mid) gets the same', async () => {
    const a = await WsClient.connect(server, ann);
    // chat's send_message handler throws Refusal('selfMessage', …) before writing anything.
    const frame = { type: 'send_message', id: randomUUID(), to: ann.id, content: 'me again' };
    const mid = a.mutate(frame);
    const first = await a.waitFor((f) => f.type === 'message_error' && f.mid === mid);
    const expected = {
      type: 'message_error',
      code: 'selfMessage',
      error: REALTIME_ERRORS.selfMessage,
      context: 'send_message',
      deviceId: a.deviceId,
      mid,
    };
    expect(first).toEqual(expected);
    const stored = await rowOf(
      server,
      'SELECT code, error, context FROM mutation_rejects WHERE device_id = ? AND mid = ?',
      a.deviceId,
      mid,
    );
    expect(stored).toEqual({
      code: 'selfMessage',
      error: REALTIME_ERRORS.selfMessage,
      context: 'send_message',
    });

    // The resend (a lost answer) is not applied again: it is answered from what was remembered, even if
    // the frame now differs, on another connection of the same device.
    a.close();
    const again = await WsClient.connect(server, ann);
    const resend = { ...frame, deviceId: a.deviceId, mid, to: 'someone-else' };
    again.send(resend);
    expect(await again.waitFor((f) => f.type === 'message_error' && f.mid === mid)).toEqual(expected);
    const count = await rowOf(server, 'SELECT count(*) AS n FROM direct_messages');
    expect(count).toEqual({ n: 0 });
    again.close();
  });
});
