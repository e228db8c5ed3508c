import { randomUUID } from 'node:crypto';
import { hashPassword } from '../lib/auth/password';
import type { DB } from '../lib/db/database';
import { findUserByEmail, insertUser } from '../modules/users/repo';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { openMigratedDatabase } from './open-db';
import { cliDeps } from './cli-deps';
import { seedDemoChat } from './demo-chat';
import { seedDemoConfessions } from './demo-confessions';
import { seedDemoDocument } from './demo-document';

/** A rejected demo account's reason where the app reads it, and the decision in its review history. */
async function recordRejection(db: DB, userId: string, reason: string, adminEmail: string, now: number) {
  const admin = await findUserByEmail(db, adminEmail);
  await db.updateTable('users').set({ rejection_reason: reason }).where('id', '=', userId).execute();
  await db
    .insertInto('document_decisions')
    .values({
      id: randomUUID(),
      user_id: userId,
      document_id: null,
      actor_id: admin?.id ?? null,
      action: 'reject',
      reason,
      from_status: 'pending_verification',
      to_status: 'rejected',
      created_at: new Date(now).toISOString(),
    })
    .execute();
}

// pnpm seed: adds the demo accounts that are missing and prints their sign-in details once.
const opened = await openMigratedDatabase();
const { db, close, config } = opened;
if (config.nodeEnv === 'production' && !process.argv.includes('--force')) {
  console.error(
    'Refusing to seed demo accounts with public passwords in production (pass --force to insist).',
  );
  process.exit(1);
}
try {
  const created: string[] = [];
  const adminEmail = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!.email;
  for (const { password, rejectionReason, ...account } of DEMO_ACCOUNTS) {
    if (await findUserByEmail(db, account.email)) continue;
    const row = await insertUser(db, { ...account, passwordHash: await hashPassword(password) }, Date.now());
    if (rejectionReason) await recordRejection(db, row.id, rejectionReason, adminEmail, Date.now());
    if (account.documentStatus === 'pending_verification')
      await seedDemoDocument(
        db,
        config,
        {
          id: row.id,
          name: `${account.firstName} ${account.lastName}`,
          college: typeof account.college === 'string' ? account.college : 'Universitas Indonesia',
          major: account.course ?? 'Ilmu Komputer',
        },
        Date.now() - 3 * 60 * 60_000,
      );
    created.push(
      `  ${account.email.padEnd(24)} ${password.padEnd(18)} ${account.role}, ${account.documentStatus}`,
    );
  }
  if (created.length) {
    console.log(
      `Demo accounts created in ${config.dataDir}:\n\n  ${'e-mail'.padEnd(24)} ${'password'.padEnd(18)} role, document\n${created.join('\n')}\n`,
    );
  } else {
    console.log('The demo accounts already exist (see README for their sign-in details).');
  }

  // The demo chat's messages are spread over the hour before now, in order.
  let now = Date.now() - 60 * 60_000;
  const deps = await cliDeps(opened, () => now);
  try {
    const { created } = await seedDemoChat(deps, { advance: (ms) => (now += ms) });
    if (created > 0) console.log('Demo chat added: Alex ↔ Priya, and the group "Hackathon Team" with Sam.');
    await seedDemoConfessions(deps, { advance: (ms) => (now += ms) });
  } finally {
    deps.realtime.close();
  }
} finally {
  await close();
}
