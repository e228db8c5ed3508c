import path from 'node:path';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../lib/db/database';

/** The same database the server uses (DATA_DIR), migrated, for one-off commands. */
export async function openMigratedDatabase() {
  const config = loadConfig();
  // The commands write through the SQLite engine: with DATABASE_URL they would fill a SQLite file the
  // server never reads.
  if (config.database.kind === 'postgres')
    throw new Error('the command-line tools run on SQLite only for now: unset DATABASE_URL to use them');
  const opened = openDatabase(path.join(config.dataDir, 'campus-talk.sqlite'));
  await migrateToLatest(opened.db);
  return { ...opened, config };
}
