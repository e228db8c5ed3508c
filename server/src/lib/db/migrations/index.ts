import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_accounts';

/** Listed statically so the bundled server needs no migration folder on disk. Append, never edit. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
};
