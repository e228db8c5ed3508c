import { hashPassword } from '../lib/auth/password';
import { findUserByEmail, insertUser } from '../modules/users/repo';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { openMigratedDatabase } from './open-db';
import { cliDeps } from './cli-deps';
import { seedDemoChat } from './demo-chat';
import { seedDemoConfessions } from './demo-confessions';

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
  for (const { password, ...account } of DEMO_ACCOUNTS) {
    if (await findUserByEmail(db, account.email)) continue;
    await insertUser(db, { ...account, passwordHash: await hashPassword(password) }, Date.now());
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
  const deps = cliDeps(opened, () => now);
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
