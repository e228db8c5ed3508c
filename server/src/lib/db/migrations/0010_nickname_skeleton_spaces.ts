import { sql, type Kysely } from 'kysely';

/**
 * Skeletons now hold one space where a name has a run of white space ('night  owl' looks like 'night owl',
 * confessions/skeleton.ts). Stored skeletons made before are collapsed the same way, so a new 'night owl'
 * clashes with an older 'night  owl'. The nicknames themselves stay as their owners set them.
 *
 * Skeletons are computed from the name, so collapsing the stored skeleton equals recomputing it. Down
 * leaves them collapsed: the older rule compared names it could not tell apart on screen.
 */
const TABLES = ['nicknames', 'nickname_claims'] as const;

/** The same rule as the server's `collapseSkeletonSpaces`, which a migration must not import. */
const collapse = (skeleton: string) => skeleton.replace(/\s+/gu, ' ').trim();

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    const rows = await sql<{ skeleton: string }>`
      SELECT DISTINCT skeleton FROM ${sql.table(table)} WHERE skeleton IS NOT NULL`.execute(db);
    for (const { skeleton } of rows.rows) {
      const collapsed = collapse(skeleton);
      if (collapsed === skeleton) continue;
      await sql`UPDATE ${sql.table(table)} SET skeleton = ${collapsed} WHERE skeleton = ${skeleton}`.execute(
        db,
      );
    }
  }
}

export async function down(): Promise<void> {}
