import { sql, type Kysely } from 'kysely';

/**
 * The student directory (GET /api/users) pages through users by name. This index is its order, so a page
 * is a seek and a short walk instead of sorting every user, and the next page starts where the last ended.
 * `id` makes the order total (two students may share a name), which the page cursor relies on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw('CREATE INDEX users_directory_idx ON users (lower(first_name), lower(last_name), id)')
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX users_directory_idx').execute(db);
}
