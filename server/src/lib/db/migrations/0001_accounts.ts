import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect';

// Migrations are frozen history: they take Kysely<unknown> so later schema changes cannot alter them.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The column types postgresDdl (dialect.ts) gives the raw-SQL migrations, for the builder: 64-bit
  // integers (epoch ms) and byte-wise text comparison, as in SQLite.
  const postgres = dialectOf(db) === 'postgres';
  const text = postgres ? sql`text collate "C"` : 'text';
  const integer = postgres ? 'bigint' : 'integer';
  await db.schema
    .createTable('users')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('password_hash', text, (c) => c.notNull())
    .addColumn('first_name', text, (c) => c.notNull())
    .addColumn('last_name', text, (c) => c.notNull().defaultTo(''))
    .addColumn('phone_number', text, (c) => c.notNull().defaultTo(''))
    .addColumn('role', text, (c) => c.notNull().defaultTo('user'))
    .addColumn('profile_picture_url', text)
    .addColumn('course', text)
    .addColumn('year', integer)
    .addColumn('bio', text)
    .addColumn('college', text)
    .addColumn('document_status', text, (c) => c.notNull().defaultTo('pending_submission'))
    .addColumn('document_deadline', text)
    .addColumn('document_url', text)
    .addColumn('document_submitted_at', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_active_at', text)
    .execute();
  // The admin review lists users by document status, newest first.
  await db.schema
    .createIndex('users_document_status_idx')
    .on('users')
    .columns(['document_status', 'created_at'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', integer, (c) => c.notNull())
    .addColumn('created_at', integer, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('email', text, (c) => c.notNull())
    .addColumn('code_hash', text, (c) => c.notNull())
    .addColumn('expires_at', integer, (c) => c.notNull())
    .addColumn('attempts', integer, (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', integer, (c) => c.notNull())
    .addColumn('payload', text)
    .addPrimaryKeyConstraint('one_time_codes_pk', ['purpose', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('one_time_codes').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
