import { hashPassword } from '../lib/auth/password';
import { findUserByEmail, insertUser } from '../modules/users/repo';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { openMigratedDatabase } from './open-db';

// pnpm seed: adds the demo accounts that are missing and prints their sign-in details once.
const { db, close, config } = await openMigratedDatabase();
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
} finally {
  await close();
}
