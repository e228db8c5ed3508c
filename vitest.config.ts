import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The server's integration tests that also run on PostgreSQL (`server-pg`: TEST_DATABASE=postgres, each
 * started server in its own throwaway database on 127.0.0.1:5432, or TEST_DATABASE_URL's server, copied
 * from a template migrated once per run (test/support/postgres.ts); two servers on one DATA_DIR share one). A file joins once it passes there; raw SQL in tests goes through
 * test/support/sql.ts (portable, on either database). Left out, and why:
 * - about SQLite's files: data-permissions (the database file's modes), realtime-outside-writer-reads
 *   (another process holding the file's write lock). (directory, directory-last-active and notifications
 *   run here without their SQLite query-plan tests: PostgreSQL plans tables this small by statistics.)
 * - about the SQLite engine itself: realtime-transactor, realtime-external-writer, realtime-mutation-batch,
 *   change-log-reader, and the migration-*, confessions-migration, confession-safety-migration and
 *   nickname-skeleton-migration tests (SQLite files; migrations-postgres and pg-transactor cover PostgreSQL);
 * - no server or no database in them (they run in `server` alone): client-ip, config*, notes-frame-decoder,
 *   ocr-accuracy/-input/-parse/-pool, storage, storage-s3 (the S3 driver; its 1-second presigned expiry
 *   failed once under load here), pg-transactor, pg-mutation-batch, migrations-postgres.
 */
const SERVER_PG_FILES = [
  'access-policy-notes',
  'access-policy-realtime',
  'access-policy-rest',
  'attachments',
  'auth-limits',
  'auth-lockout',
  'auth-login-line',
  'auth-session',
  'auth-signup',
  'blocks-enforcement',
  'blocks-separation',
  'calls-block',
  'calls-history',
  'calls-lifecycle',
  'calls-reconnect',
  'calls-signalling',
  'chat-rest',
  'chat-rest-seed',
  'chat-writes',
  'cli',
  'client-config',
  'colleges-admin-merge',
  'colleges-admin',
  'colleges-files',
  'colleges-import',
  'colleges-lookup',
  'colleges-swot',
  'confessions-anonymity',
  'confessions-feed',
  'confessions-live',
  'confessions-mutations',
  'confessions-outbox-ws',
  'confessions-post',
  'confessions-reactions',
  'confessions-reads',
  'confessions-redaction',
  'confessions-timing',
  'dev-mailbox',
  'direct-limits',
  'directory',
  'directory-last-active',
  'drain-readiness',
  'drain-shutdown',
  'friends-pages',
  'friends-requests',
  'group-strangers',
  'groups',
  'groups-live',
  'lifecycle',
  'live-sockets',
  'moderation-route',
  'moderation',
  'names-groups-files',
  'nickname-lookalikes',
  'notes',
  'notes-hostile',
  'notes-membership-isolation',
  'notes-pending-awareness',
  'notes-reconnect',
  'notes-review',
  'notes-store',
  'notifications',
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
  'random-privacy',
  'random-rooms',
  'random-safety',
  'realtime-abuse',
  'realtime-auth-fault',
  'realtime-chat',
  'realtime-delivery-receipts',
  'realtime-groups',
  'realtime-limits',
  'realtime-presence-strangers',
  'realtime-presence',
  'realtime-prune',
  'realtime-refusals',
  'realtime-sync',
  'realtime-writes',
  'realtime-ws-frame',
  'redis-calls-random',
  'redis-handover',
  'redis-handover-crash',
  'redis-lease',
  'redis-nodes',
  'redis-notes',
  'redis-notes-awareness',
  'redis-presence',
  'redis-rate-limits',
  'redis-readiness',
  'redis-told-once-stored',
  'registry-types',
  'reports-admin',
  'reports-file',
  'reports-hold',
  'reports-suspension',
  'rest-limits',
  'session-revocation',
  'snapshot',
  'trusted-proxies',
  'verification-academic',
  'verification-admin',
  'verification-upload',
];

/**
 * How many test files run at once, across the projects: at least 4, and Vitest's default (one less than the
 * cores) where that is more. Most of the time of a server or system test is spent waiting (on sockets,
 * timers, PostgreSQL, Redis, child processes), not on the CPU: on the 2-core CI machine the default, one
 * file at a time, kept a third to half of one core busy, and 4 at once ran the suite in about a third of
 * the time. Files run side by side in worker processes of their own, each file on its own ports, temp
 * folders, PostgreSQL database and Redis prefix. `--maxWorkers` or VITEST_MAX_WORKERS overrides it.
 */
const MAX_WORKERS = Math.max(4, os.availableParallelism() - 1);

/**
 * The server's projects run their files without a fresh module graph each (`isolate: false`): a worker
 * process loads the server's modules once and runs file after file on them. Loading them anew for every
 * file (the server, Hono, Kysely, the protocol's schemas, through Vitest's module runner) was about a
 * third of those projects' CPU, and on the 2-core CI machine the suite is CPU-bound: the two took 636 s
 * (990 s of CPU) isolated and 475 s (702 s) shared (2026-11-28, README "Tests"). What a file may not do
 * is leave state behind for the next: every test here starts its own server (own port, DATA_DIR,
 * database, Redis prefix) and stops it, restores real timers, and sets no process.env; a file that mocks
 * a module the server loads (`vi.mock`) must load its subjects anew (`vi.resetModules()`, as
 * portable-sql-statements does).
 */
const SHARED_MODULES = { isolate: false } as const;

/** PostgreSQL for the projects that use it: the run's migrated template, each file's database dropped. */
const POSTGRES_GLOBAL_SETUP = 'server/test/support/postgres-global.ts';
const POSTGRES_CLEANUP = 'server/test/support/postgres-cleanup.ts';

/** One `vitest run` covers every workspace project; each keeps its own environment. */
export default defineConfig({
  test: {
    maxWorkers: MAX_WORKERS,
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', environment: 'node' } },
      { test: { name: 'sync', root: 'packages/sync', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'server',
          environment: 'node',
          ...SHARED_MODULES,
          // On PostgreSQL only (TEST_DATABASE=postgres): the server-pg project runs it.
          exclude: ['**/node_modules/**', 'test/postgres-server.test.ts'],
          globalSetup: [`../${POSTGRES_GLOBAL_SETUP}`],
          setupFiles: [`../${POSTGRES_CLEANUP}`],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          root: 'server',
          environment: 'node',
          ...SHARED_MODULES,
          env: { TEST_DATABASE: 'postgres' },
          include: SERVER_PG_FILES.map((name) => `test/${name}.test.ts`),
          globalSetup: [`../${POSTGRES_GLOBAL_SETUP}`],
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
          globalSetup: [`../../${POSTGRES_GLOBAL_SETUP}`],
          setupFiles: [`../../${POSTGRES_CLEANUP}`],
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
          // One jsdom per worker, each file still in a fresh VM context: building jsdom anew for every file
          // was 38 % of the project's time.
          pool: 'vmThreads',
          setupFiles: ['./test/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
