import fs from 'node:fs';
import path from 'node:path';
import { openMigratedDatabase } from './open-db';
import { cliDeps } from './cli-deps';
import { importColleges, parseCollegeFile } from '../modules/colleges';

// pnpm --filter @campus/server colleges:import FILE (a university-domains JSON list, or a CSV with
// name,country,state,city,domains). Idempotent: the same file again changes nothing.
const file = process.argv[2];
if (!file) {
  console.error(
    'usage: colleges:import FILE   (university-domains JSON, or CSV: name,country,state,city,domains)',
  );
  process.exit(2);
}
const filePath = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
let parsed;
try {
  parsed = parseCollegeFile(fs.readFileSync(filePath, 'utf8'));
} catch (err) {
  console.error(`Cannot read ${filePath}: ${(err as Error).message}`);
  process.exit(1);
}
const opened = await openMigratedDatabase();
try {
  const deps = await cliDeps(opened, Date.now);
  try {
    const source = `import:${path.basename(filePath)}`;
    const started = performance.now();
    const s = await importColleges(deps.transactor, parsed.records, source);
    const ms = Math.round(performance.now() - started);
    console.log(
      `${source}: ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged; ` +
        `${s.domainsAdded} domains added${s.domainConflicts ? `, ${s.domainConflicts} kept by another college` : ''}; ` +
        `${parsed.skipped.length} rows skipped (${ms} ms)`,
    );
    const reasons = new Map<string, number>();
    for (const { reason } of parsed.skipped) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    for (const [reason, n] of reasons) console.log(`  skipped ${n}: ${reason}`);
  } finally {
    deps.realtime.close();
  }
} finally {
  await opened.close();
}
