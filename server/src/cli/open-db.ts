import path from 'node:path';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../lib/db/database';

/** The same database the server uses (DATA_DIR), migrated, for one-off commands. */
export async function openMigratedDatabase() {
  const config = loadConfig();
  const opened = openDatabase(path.join(config.dataDir, 'campus-talk.sqlite'));
  await migrateToLatest(opened.db);
  return { ...opened, config };
}
