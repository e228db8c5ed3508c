import { defineConfig } from 'vitest/config';

/**
 * The server's integration tests that also run on PostgreSQL (`server-pg`: TEST_DATABASE=postgres, each
 * started server in its own throwaway schema of 127.0.0.1:5432/test, or TEST_DATABASE_URL; two servers on
 * one DATA_DIR share one). A file joins once it passes there; raw SQL in tests goes through
 * test/support/sql.ts (portable, on either database). Left out, and why:
 * - they read or write `deps.sqlite` directly (raw SQLite statements, a patched statement prototype, a
 *   SQLite file of their own, EXPLAIN QUERY PLAN) or through a helper that does (random-helpers, notes-
 *   helpers, verifyStudent): attachments, calls-lifecycle, chat-rest-seed, chat-writes,
 *   colleges-files, colleges-import, colleges-swot, confessions-feed, data-permissions, direct-limits,
 *   directory, directory-last-active, drain-readiness, drain-shutdown, lifecycle,
 *   names-groups-files, notifications, random-privacy, random-rooms, random-safety,
 *   realtime-outside-writer-reads, realtime-prune, redis-presence, session-revocation;
 * - about the SQLite engine itself: realtime-transactor, realtime-external-writer, realtime-mutation-batch,
 *   change-log-reader, and the migration-*, confessions-migration, confession-safety-migration and
 *   nickname-skeleton-migration tests (SQLite files; migrations-postgres and pg-transactor cover PostgreSQL);
 * - calls that fail on PostgreSQL, not yet explained: calls-block (a block during a call: the call_logged
 *   change does not arrive in time), calls-history (on CI the last call's log was missing from a page read
 *   right after its call_logged change arrived) and calls-reconnect (an answer handed over on resume); and
 *   redis-calls-random, whose random-helpers write SQLite directly;
 * - group notes are not served on PostgreSQL yet (their store is synchronous SQLite; /notes answers 503):
 *   notes, notes-*, access-policy-notes, redis-notes, realtime-auth-fault (expects the notes upgrade);
 * - no server or no database in them (they run in `server` alone): cli (the CLI runs on SQLite), client-ip,
 *   config*, ocr-accuracy/-input/-parse/-pool, storage, storage-s3 (the S3 driver; its 1-second presigned
 *   expiry failed once under load here), pg-transactor, migrations-postgres.
 */
const SERVER_PG_FILES = [
  'access-policy-realtime',
  'access-policy-rest',
  'auth-limits',
  'auth-lockout',
  'auth-login-line',
  'auth-session',
  'auth-signup',
  'blocks-enforcement',
  'blocks-separation',
  'calls-signalling',
  'chat-rest',
  'client-config',
  'colleges-admin-merge',
  'colleges-admin',
  'colleges-lookup',
  'confessions-anonymity',
  'confessions-live',
  'confessions-mutations',
  'confessions-outbox-ws',
  'confessions-post',
  'confessions-reactions',
  'confessions-reads',
  'confessions-redaction',
  'confessions-timing',
  'dev-mailbox',
  'friends-pages',
  'friends-requests',
  'group-strangers',
  'groups',
  'groups-live',
  'live-sockets',
  'moderation-route',
  'moderation',
  'nickname-lookalikes',
  'ocr-route',
  'platform',
  'postgres-server',
  'profile-focused',
  'push',
  'profile-live',
  'profile-picture',
  'profile-save',
  'push-queue',
  'random-matchmaker',
  'realtime-abuse',
  'realtime-chat',
  'realtime-delivery-receipts',
  'realtime-groups',
  'realtime-limits',
  'realtime-presence-strangers',
  'realtime-presence',
  'realtime-refusals',
  'realtime-sync',
  'realtime-writes',
  'realtime-ws-frame',
  'redis-lease',
  'redis-nodes',
  'redis-rate-limits',
  'redis-readiness',
  'registry-types',
  'reports-admin',
  'reports-file',
  'reports-hold',
  'reports-suspension',
  'rest-limits',
  'snapshot',
  'trusted-proxies',
  'verification-academic',
  'verification-admin',
  'verification-upload',
];

/** One `vitest run` covers every workspace project; each keeps its own environment. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', environment: 'node' } },
      { test: { name: 'sync', root: 'packages/sync', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'server',
          environment: 'node',
          // On PostgreSQL only (TEST_DATABASE=postgres): the server-pg project runs it.
          exclude: ['**/node_modules/**', 'test/postgres-server.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          root: 'server',
          environment: 'node',
          env: { TEST_DATABASE: 'postgres' },
          include: SERVER_PG_FILES.map((name) => `test/${name}.test.ts`),
          setupFiles: ['./test/support/postgres-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The real server and real sync clients over real sockets (fault injection, catch-up).
        test: {
          name: 'system',
          root: 'tests/system',
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'desktop', root: 'apps/desktop', environment: 'node' } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'jsdom',
          setupFiles: ['./test/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
