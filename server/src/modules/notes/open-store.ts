import type { AppDeps } from '../../deps';
import { PgNotesStore } from './pg-store';
import { SqliteNotesStore } from './sqlite-store';
import type { NotesStore } from './store';

/**
 * The store of the server's database. The one place outside sqlite-store.ts that touches the raw SQLite
 * handle (eslint.config.js): it only hands it over.
 */
export function openNotesStore(deps: AppDeps): NotesStore {
  if (deps.database.kind === 'postgres') return new PgNotesStore(deps);
  if (!deps.sqlite) throw new Error('group notes on SQLite need the raw better-sqlite3 handle (deps.sqlite)');
  return new SqliteNotesStore(deps.sqlite, deps.now);
}
