import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BACKSTOP_CHECKPOINT_PAGES,
  INLINE_CHECKPOINT_PAGES,
  startCheckpointer,
} from '../src/lib/db/checkpointer';
import { openDatabase, type OpenedDatabase } from '../src/lib/db/database';
import { until } from './support/until';

const PAGE = 4096;

/** Thread ids (in /proc) and their nice values, of this process. */
function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nices.set(tid, Number(fields[16]));
  }
  return nices;
}

describe('WAL checkpoints in a worker thread', () => {
  let dir: string;
  let file: string;
  let opened: OpenedDatabase | undefined;
  const warnings: unknown[][] = [];
  const log = { warn: (...args: unknown[]) => void warnings.push(args) };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
    file = path.join(dir, 'db.sqlite');
    warnings.length = 0;
  });

  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Commits `pages` pages of new rows, one transaction each (as the server's messages are). */
  function write(pages: number): void {
    const sqlite = opened!.sqlite;
    sqlite.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const insert = sqlite.prepare('INSERT INTO filler (body) VALUES (?)');
    for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(PAGE - 200, i % 251));
  }

  it('copies the WAL into the database file while the handle never checkpoints by itself', async () => {
    opened = openDatabase(file, { checkpointer: { log, busyMs: 10, idleMs: 50 } });
    // The handle's own checkpoint is only a backstop, far above what this test writes.
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    const before = fs.statSync(file).size;
    write(2000);
    // Without the thread the 2,000 pages would sit in the -wal file: nothing else checkpoints below 10,000.
    await until(
      () => fs.statSync(file).size >= before + 1900 * PAGE,
      'the pages to reach the database file',
      10_000,
    );
    // Once it has caught up, the next commit starts the WAL over at its first frame instead of growing it.
    const wal = () => fs.statSync(`${file}-wal`).size;
    await until(
      () => {
        const size = wal();
        write(1);
        return wal() === size;
      },
      'a commit to start the WAL over',
      10_000,
    );
    expect(warnings).toEqual([]);
  });

  it('runs at the lowest priority on a thread of its own, and close() stops it and empties the WAL', async () => {
    const before = threadNices();
    opened = openDatabase(file, { checkpointer: { log } });
    await until(
      () => [...threadNices()].some(([tid, nice]) => !before.has(tid) && nice === 19),
      'a new thread at nice 19',
      10_000,
    );
    // Every other thread (the event loop's among them) keeps its priority.
    const after = threadNices();
    for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
    write(50);
    await opened.close();
    opened = undefined;
    expect(fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('gives checkpoints back to the handle, and says so, when the thread is lost', async () => {
    opened = openDatabase(file);
    const checkpointer = startCheckpointer(opened.sqlite, file, { log });
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    await checkpointer.worker.terminate();
    await until(() => warnings.length > 0, 'a warning');
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(INLINE_CHECKPOINT_PAGES);
    expect(String(warnings[0]?.at(-1))).toMatch(/checkpointer exited/);
    // A stop after the loss resolves at once.
    await checkpointer.stop();
  });

  it('never keeps the process alive: a process that leaves its database open still exits', () => {
    const url = new URL('../src/lib/db/database.ts', import.meta.url).href;
    const script = path.join(dir, 'leave-open.mts');
    fs.writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(url)};
      const { sqlite } = openDatabase(${JSON.stringify(file)}, { checkpointer: { log: console } });
      sqlite.exec('CREATE TABLE t (x)');
      console.log('opened');`,
    );
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: path.dirname(new URL(import.meta.url).pathname),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.error).toBeUndefined();
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('opened');
    // And nothing was warned: the thread was not refused at its start.
    expect(child.stderr).toBe('');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('is not started for a database opened without it (a command-line tool)', async () => {
    const before = threadNices().size;
    opened = openDatabase(file);
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(INLINE_CHECKPOINT_PAGES);
    expect(threadNices().size).toBe(before);
  });
});
