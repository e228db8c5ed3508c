import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_MSG, profileUpdateSchema, type User } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

/**
 * Focused talk's profile fields (issue 13): interests (options of the list, at most 10), skill level and
 * branch (one option or none), saved with `PUT /api/users/profile`, answered by `me` and carried to the
 * student's other devices by `me_updated`. Omitted fields stay; empty values clear.
 */
let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
});
afterAll(() => server.close());

const put = (body: unknown) => server.call('PUT', '/api/users/profile', body, ann.token);
const me = async () => (await server.get('/api/auth/me', ann.token)).body as unknown as User;

describe('focused talk profile fields', () => {
  it('start empty, are saved, answered by me and reach my other devices through me_updated', async () => {
    expect(await me()).toMatchObject({ interests: [], skillLevel: null, branch: null });
    const device = await WsClient.connect(server, ann);
    const res = await put({
      interests: ['Music', 'Coding', 'Music'],
      skillLevel: 'Intermediate',
      branch: 'AI/ML',
    });
    expect(res.status).toBe(200);
    // Repeats dropped, the student's order kept.
    expect(res.body).toMatchObject({
      interests: ['Music', 'Coding'],
      skillLevel: 'Intermediate',
      branch: 'AI/ML',
    });
    expect(await me()).toEqual(res.body);
    const change = await device.waitFor((f) => f.type === 'me_updated');
    expect(change.user).toEqual(res.body);
    device.close();
  });

  it('leaves omitted fields unchanged and clears with empty values', async () => {
    await put({ interests: ['Art'], skillLevel: 'Advanced', branch: 'CS' });
    expect((await put({ bio: 'Hi' })).body).toMatchObject({
      interests: ['Art'],
      skillLevel: 'Advanced',
      branch: 'CS',
    });
    expect((await put({ interests: [], skillLevel: '', branch: null })).body).toMatchObject({
      interests: [],
      skillLevel: null,
      branch: null,
    });
    expect((await put({ skillLevel: 'Beginner' })).body).toMatchObject({
      skillLevel: 'Beginner',
      branch: null,
    });
  });

  it('refuses values off the lists and more than 10 interests, writing nothing', async () => {
    await put({ interests: ['Dance'], skillLevel: 'Beginner', branch: 'ECE' });
    const cases: [unknown, string][] = [
      [{ interests: ['Dance', 'Knitting'] }, PROFILE_MSG.interestUnknown],
      [{ interests: 'Dance' }, PROFILE_MSG.interestUnknown],
      [{ interests: [1] }, PROFILE_MSG.interestUnknown],
      [{ skillLevel: 'Expert' }, PROFILE_MSG.skillLevelUnknown],
      [{ skillLevel: 3 }, PROFILE_MSG.skillLevelUnknown],
      [{ branch: 'Law' }, PROFILE_MSG.branchUnknown],
      [
        {
          interests: [
            'Coding',
            'Photography',
            'Music',
            'Sports',
            'Reading',
            'Gaming',
            'Art',
            'Cooking',
            'Travel',
            'Fitness',
            'Movies',
          ],
        },
        PROFILE_MSG.interestsTooMany,
      ],
    ];
    for (const [body, error] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error });
    }
    // Ten is the most, and a save that fails in one field writes none of the others.
    const ten = [
      'Coding',
      'Photography',
      'Music',
      'Sports',
      'Reading',
      'Gaming',
      'Art',
      'Cooking',
      'Travel',
      'Fitness',
    ];
    expect((await put({ interests: ten, branch: 'Law' })).status).toBe(400);
    expect(await me()).toMatchObject({ interests: ['Dance'], skillLevel: 'Beginner', branch: 'ECE' });
    expect((await put({ interests: ten })).body).toMatchObject({ interests: ten });
  });

  it('the schema: omitted stays undefined, empty clears', () => {
    expect(profileUpdateSchema.parse({})).toEqual({});
    expect(profileUpdateSchema.parse({ interests: [], skillLevel: ' ', branch: '' })).toEqual({
      interests: [],
      skillLevel: null,
      branch: null,
    });
  });
});
