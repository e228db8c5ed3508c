import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { dialectOf } from './dialect';
import * as m0001 from './0001_accounts';
import * as m0002 from './0002_chat';
import * as m0003 from './0003_confessions';
import * as m0004 from './0004_notifications';
import * as m0005 from './0005_confession_safety';
import * as m0006 from './0006_notification_confession';
import * as m0007 from './0007_nickname_skeletons';
import * as m0008 from './0008_direct_limits';
import * as m0009 from './0009_users_directory';
import * as m0010 from './0010_nickname_skeleton_spaces';
import * as m0011 from './0011_reject_codes';
import * as m0012 from './0012_confession_posted_seq';
import * as m0013 from './0013_colleges';
import * as m0014 from './0014_documents';
import * as m0015 from './0015_friends';
import * as m0016 from './0016_calls';
import * as m0017 from './0017_held_friend_requests';
import * as m0018 from './0018_reports';
import * as m0019 from './0019_focused_profile';
import * as m0020 from './0020_random_blocks';
import * as m0021 from './0021_change_audience_seq';
import * as m0022 from './0022_group_activity';

interface MigrationModule {
  up: Migration['up'];
  down: NonNullable<Migration['down']>;
}

/**
 * Kysely runs SQLite migrations outside a transaction (its SQLite adapter does not claim transactional
 * DDL), yet SQLite has it: each step runs in one, so a migration cut short leaves nothing half-made.
 * On PostgreSQL the migrator itself runs the whole batch in one transaction (and Kysely cannot nest one),
 * so a step is handed that transaction as is.
 */
export function inTransaction(m: MigrationModule): Migration {
  return {
    up: (db) => (db.isTransaction ? m.up(db) : db.transaction().execute((tx) => m.up(tx))),
    down: (db) => (db.isTransaction ? m.down(db) : db.transaction().execute((tx) => m.down(tx))),
  };
}

/** Listed statically so the bundled server needs no migration folder on disk. Append, never edit. */
const modules: Record<string, MigrationModule> = {
  '0001_accounts': m0001,
  '0002_chat': m0002,
  '0003_confessions': m0003,
  '0004_notifications': m0004,
  '0005_confession_safety': m0005,
  '0006_notification_confession': m0006,
  '0007_nickname_skeletons': m0007,
  '0008_direct_limits': m0008,
  '0009_users_directory': m0009,
  '0010_nickname_skeleton_spaces': m0010,
  '0011_reject_codes': m0011,
  '0012_confession_posted_seq': m0012,
  '0013_colleges': m0013,
  '0014_documents': m0014,
  '0015_friends': m0015,
  '0016_calls': m0016,
  '0017_held_friend_requests': m0017,
  '0018_reports': m0018,
  '0019_focused_profile': m0019,
  '0020_random_blocks': m0020,
  '0021_change_audience_seq': m0021,
  '0022_group_activity': m0022,
};

export const migrations: Record<string, Migration> = Object.fromEntries(
  Object.entries(modules).map(([name, m]) => [name, inTransaction(m)]),
);

/**
 * The migrator for a database of either dialect. On PostgreSQL its bookkeeping tables (kysely_migration,
 * kysely_migration_lock) are looked for in the connection's current schema: Kysely otherwise finds them in
 * any schema of the database, so a second schema (another deployment, a test's) would be taken as
 * migrated already.
 */
export async function createMigrator<T>(db: Kysely<T>): Promise<Migrator> {
  const provider = { getMigrations: async () => migrations };
  if (dialectOf(db) === 'sqlite') return new Migrator({ db, provider });
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check the search_path');
  return new Migrator({ db, provider, migrationTableSchema: schema });
}
