import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, SERVER_MSG, moderateResponseSchema } from '@campus/protocol';
import { MODERATION_RATE } from '../src/modules/moderation/routes';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
});
afterAll(() => server.close());

describe('POST /moderation/moderate', () => {
  it('answers the spec shape with the censored text for a signed-in user', async () => {
    const res = await server.post('/moderation/moderate', { text: 'ujian ini anjing, fuuuck' }, ann.token);
    expect(res.status).toBe(200);
    expect(moderateResponseSchema.parse(res.body)).toEqual({
      original_text: 'ujian ini anjing, fuuuck',
      censored_text: 'ujian ini ******, ******',
      has_blocked_words: true,
      blocked_words: ['anjing', 'fuuuck'],
    });
    const clean = await server.post('/moderation/moderate', { text: 'Scunthorpe class' }, ann.token);
    expect(clean.body).toMatchObject({ censored_text: 'Scunthorpe class', has_blocked_words: false });
  });

  it('refuses anonymous callers', async () => {
    const res = await server.post('/moderation/moderate', { text: 'hello' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: SERVER_MSG.unauthorized });
    const forged = await server.post('/moderation/moderate', { text: 'hello' }, 'a'.repeat(40));
    expect(forged.status).toBe(401);
  });

  it('validates the body with the schema message', async () => {
    const missing = await server.post('/moderation/moderate', {}, ann.token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: CONFESSION_SERVER_MSG.moderationTextRequired });
    expect((await server.post('/moderation/moderate', { text: 42 }, ann.token)).status).toBe(400);
    expect((await server.post('/moderation/moderate', { text: 'x'.repeat(5001) }, ann.token)).status).toBe(
      400,
    );
    const notJson = await server.call('POST', '/moderation/moderate', undefined, ann.token);
    expect(notJson.status).toBe(400);
  });

  it('rate-limits previews per user', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MODERATION_RATE.limit; i++)
      statuses.push((await server.post('/moderation/moderate', { text: `draft ${i}` }, bob.token)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await server.post('/moderation/moderate', { text: 'one more' }, bob.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: SERVER_MSG.tooManyRequests });
    // Ann has her own budget.
    expect((await server.post('/moderation/moderate', { text: 'hi' }, ann.token)).status).toBe(200);
  });
});
