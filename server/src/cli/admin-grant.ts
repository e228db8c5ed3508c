import { openMigratedDatabase } from './open-db';
import { findUserByEmail, setUserRole } from '../modules/users/repo';

// pnpm --filter @campus/server admin:grant someone@uni.edu
const email = process.argv[2]?.trim().toLowerCase();
if (!email) {
  console.error('usage: admin:grant EMAIL');
  process.exit(2);
}
const { db, close } = await openMigratedDatabase();
try {
  const user = await findUserByEmail(db, email);
  if (!user) {
    console.error(`No account with the e-mail ${email}. They must sign up first.`);
    process.exitCode = 1;
  } else if (user.role === 'admin') {
    console.log(`${email} is already an admin.`);
  } else {
    await setUserRole(db, user.id, 'admin');
    console.log(`${email} is now an admin.`);
  }
} finally {
  await close();
}
