import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentStatus, User } from '@campus/protocol';
import { hashPassword } from '../src/lib/auth/password';
import { createGroup } from '../src/modules/groups/service';
import { insertUser } from '../src/modules/users';
import { addStudent, upload, type Student } from './chat-rest-helpers';
import { expectRestRefusal, FULL, LIMITED, STATUSES } from './access-policy-helpers';
import { startTestServer, type TestServer } from './support/test-server';
import { execSql } from './support/sql';
import { setDocumentStatus } from './support/verify-student';

/**
 * The access policy at the REST door (issue 11): every route that takes part refuses the limited statuses
 * with 403 `verificationRequired`, lets verified and not_required through, and VERIFICATION_POLICY=off lets
 * everyone through. Adding a gated route is one line in GATED_ROUTES.
 */

// A real 1×1 PNG.
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** One account under test and what its requests need: a verified peer, a shared group, a confession. */
interface Ctx {
  server: TestServer;
  actor: Student;
  peer: Student;
  groupId: string;
  confessionId: string;
}

interface GatedRoute {
  name: string;
  method: 'POST';
  path: (ctx: Ctx) => string;
  /** A JSON body, or `upload` for a multipart attachment. */
  body?: (ctx: Ctx) => unknown;
  upload?: true;
  ok: number;
}

const GATED_ROUTES: GatedRoute[] = [
  {
    name: 'post a confession',
    method: 'POST',
    path: () => '/api/confessions/post',
    body: () => ({ content: 'Finals week, and the library is full.', emotionTag: '😐' }),
    ok: 201,
  },
  {
    name: 'react to a confession',
    method: 'POST',
    path: (c) => `/api/confessions/${c.confessionId}/react`,
    body: () => ({ reactionType: 'relatable' }),
    ok: 200,
  },
  {
    name: 'comment on a confession',
    method: 'POST',
    path: (c) => `/api/confessions/${c.confessionId}/comment`,
    body: () => ({ content: 'Same here.' }),
    ok: 201,
  },
  {
    name: 'create a group (adding its members)',
    method: 'POST',
    path: () => '/api/groups',
    body: (c) => ({ name: 'Study group', memberIds: [c.peer.id] }),
    ok: 201,
  },
  {
    name: 'send a file in a group',
    method: 'POST',
    path: (c) => `/api/groups/${c.groupId}/attachments`,
    upload: true,
    ok: 201,
  },
  {
    name: 'send a file in a direct chat',
    method: 'POST',
    path: (c) => `/api/chat/${c.peer.id}/attachments`,
    upload: true,
    ok: 201,
  },
  {
    name: 'send a friend request',
    method: 'POST',
    path: () => '/api/users/friends/requests',
    body: (c) => ({ to: c.peer.id }),
    ok: 200,
  },
];

function call(route: GatedRoute, ctx: Ctx) {
  const path = route.path(ctx);
  if (route.upload) return upload(ctx.server, path, ctx.actor.token, { bytes: PNG, name: 'notes.png' });
  return ctx.server.call(route.method, path, route.body?.(ctx) ?? {}, ctx.actor.token);
}

/** A server with a verified peer, a confession of theirs, and one account per status in a group with them. */
async function world(server: TestServer) {
  const peer = await addStudent(server, 'Pia', 'Peer');
  await nickname(server, peer);
  const posted = await server.post(
    '/api/confessions/post',
    { content: 'I still get lost in the science block.', emotionTag: '😐' },
    peer.token,
  );
  expect(posted.status).toBe(201);
  const confessionId = (posted.body as { id: string }).id;
  const ctxOf = new Map<DocumentStatus, Ctx>();
  for (const status of STATUSES) {
    const actor = await addStudent(server, 'Acc', status.replace(/_/g, ''), status);
    await nickname(server, actor);
    const group = await createGroup(server.deps, peer.id, { name: 'Lab', memberIds: [actor.id] });
    ctxOf.set(status, { server, actor, peer, groupId: group.id, confessionId });
  }
  return { peer, confessionId, ctxOf };
}

/** Choosing a nickname is open to every account (it shows nothing until the account posts). */
async function nickname(server: TestServer, student: Student) {
  const res = await server.post(
    '/api/confessions/nickname/set',
    { nickname: `nick ${randomUUID().slice(0, 8)}` },
    student.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

let server: TestServer;
let ctxOf: Map<DocumentStatus, Ctx>;

beforeAll(async () => {
  server = await startTestServer();
  ({ ctxOf } = await world(server));
});
afterAll(() => server.close());

describe.each(GATED_ROUTES)('REST: $name', (route) => {
  it('refuses pending_submission, pending_verification and rejected with verificationRequired', async () => {
    for (const status of LIMITED)
      expectRestRefusal(await call(route, ctxOf.get(status)!), status, route.name);
  });

  it('lets verified and not_required accounts through', async () => {
    for (const status of FULL) {
      const res = await call(route, ctxOf.get(status)!);
      expect(res.status, `${route.name} as ${status}: ${JSON.stringify(res.body)}`).toBe(route.ok);
    }
  });
});

describe('what a limited account still does', () => {
  it('reads the feed, its chats, groups and notifications, saves its profile and deletes its own confession', async () => {
    for (const status of LIMITED) {
      const { actor, peer, groupId } = ctxOf.get(status)!;
      const reads: [string, string, unknown?][] = [
        ['GET', '/api/confessions/feed'],
        ['GET', '/api/conversations'],
        ['GET', '/api/notifications'],
        ['GET', '/api/notifications/unread-count'],
        ['GET', `/api/groups/${groupId}`],
        ['GET', `/api/groups/${groupId}/messages`],
        ['GET', `/api/chat/${peer.id}`],
        ['GET', '/api/users'],
        ['GET', '/api/upload/document/status'],
        ['PUT', '/api/users/profile', { course: 'History', year: 2 }],
      ];
      for (const [method, path, body] of reads) {
        const res = await server.call(method, path, body, actor.token);
        expect(res.status, `${method} ${path} as ${status}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    }
    // Posted while verified, then the account was rejected: withdrawing one's own words stays open.
    const { actor } = ctxOf.get('verified')!;
    const mine = await server.post(
      '/api/confessions/post',
      { content: 'Posted before the review changed.', emotionTag: '😐' },
      actor.token,
    );
    expect(mine.status).toBe(201);
    await setDocumentStatus(server, actor.id, 'rejected');
    try {
      const id = (mine.body as { id: string }).id;
      expect((await server.call('DELETE', `/api/confessions/${id}`, undefined, actor.token)).status).toBe(
        200,
      );
    } finally {
      await setDocumentStatus(server, actor.id, 'verified');
    }
  });

  it('sees itself with its access level and, when rejected, the reason (me, login)', async () => {
    const rejected = ctxOf.get('rejected')!.actor;
    await execSql(
      server,
      'UPDATE users SET rejection_reason = ? WHERE id = ?',
      'The photo is blurry.',
      rejected.id,
    );
    const me = (await server.get('/api/auth/me', rejected.token)).body as unknown as User;
    expect(me).toMatchObject({
      documentStatus: 'rejected',
      access: 'limited',
      rejectionReason: 'The photo is blurry.',
    });
    for (const status of FULL) {
      const full = (await server.get('/api/auth/me', ctxOf.get(status)!.actor.token)).body as unknown as User;
      expect(full).toMatchObject({ documentStatus: status, access: 'full', rejectionReason: null });
    }
    const pending = ctxOf.get('pending_verification')!.actor;
    const saved = await server.call('PUT', '/api/users/profile', { bio: 'Hi' }, pending.token);
    expect(saved.body).toMatchObject({ access: 'limited', rejectionReason: null, bio: 'Hi' });
  });

  it('takes part from the next request once an admin verifies it, and stops once rejected', async () => {
    const ctx = ctxOf.get('pending_verification')!;
    const route = GATED_ROUTES[0]!;
    expectRestRefusal(await call(route, ctx), 'pending_verification', route.name);
    await setDocumentStatus(server, ctx.actor.id, 'verified');
    expect((await call(route, ctx)).status).toBe(route.ok);
    await setDocumentStatus(server, ctx.actor.id, 'rejected');
    expectRestRefusal(await call(route, ctx), 'rejected', route.name);
    await setDocumentStatus(server, ctx.actor.id, 'pending_verification');
  });
});

describe('admins', () => {
  it('an address of ADMIN_EMAILS needs no document: promoted at login to not_required, with full access', async () => {
    const admins = await startTestServer({ config: { adminEmails: new Set(['head@uni.edu']) } });
    try {
      await insertUser(
        admins.deps.db,
        {
          email: 'head@uni.edu',
          passwordHash: await hashPassword('secret12'),
          firstName: 'Hana',
          lastName: 'Head',
          phoneNumber: '',
          role: 'user',
        },
        admins.deps.now(),
      );
      const res = await admins.post('/api/auth/login', { email: 'head@uni.edu', password: 'secret12' });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ role: 'admin', documentStatus: 'not_required', access: 'full' });
    } finally {
      await admins.close();
    }
  });
});

describe('VERIFICATION_POLICY=off', () => {
  it('lets a pending account through every gated route, and shows it full access', async () => {
    const open = await startTestServer({ config: { verificationPolicy: 'off' } });
    try {
      const ctx = (await world(open)).ctxOf.get('pending_submission')!;
      for (const route of GATED_ROUTES) {
        const res = await call(route, ctx);
        expect(res.status, `${route.name}: ${JSON.stringify(res.body)}`).toBe(route.ok);
      }
      const me = (await open.get('/api/auth/me', ctx.actor.token)).body;
      expect(me).toMatchObject({ documentStatus: 'pending_submission', access: 'full' });
    } finally {
      await open.close();
    }
  });
});
