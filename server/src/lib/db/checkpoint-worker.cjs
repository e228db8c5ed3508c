// The server's SQLite WAL checkpoints, in a worker thread of their own (started by checkpointer.ts).
//
// A checkpoint copies the pages committed to the -wal file back into the database file, then syncs it. Run
// by SQLite itself (wal_autocheckpoint), it happens inside whichever COMMIT crossed the threshold: on the
// event loop, for one to three milliseconds of page copying on tmpfs (and a disk's fsync on a real disk),
// every hundred or so chat messages. Here it runs on its own connection and thread: PASSIVE, so it never
// waits for the server's readers or writer and they never wait for it.
//
// Plain CommonJS with no imports of the server's code: it is loaded as is, from the source folder in
// development and tests and from dist/ in the built server (server/build.mjs copies it there).
'use strict';
const os = require('node:os');
const { parentPort, workerData } = require('node:worker_threads');

/** @type {{ file: string, driver: string, busyMs: number, idleMs: number }} */
const { file, driver, busyMs, idleMs } = workerData;

// The lowest CPU priority, for this thread only (on Linux a thread's nice is its own): where the server
// shares one core with its checkpoints, the event loop comes first and the copying fills the gaps.
try {
  os.setPriority(19);
} catch {
  // Not permitted here: the checkpoints run at the server's priority.
}

const SQLite = require(driver);
const db = new SQLite(file, { fileMustExist: true });
// The server's durability: the -wal file is synced before the copy and the database file after it.
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

let wait = busyMs;
/** The -wal file's frame count at the last run: unchanged means nothing was committed since. */
let lastLog = -1;
let timer = setTimeout(run, wait);

function run() {
  try {
    /** @type {{ busy: number, log: number, checkpointed: number }} */
    const { log, checkpointed } = checkpoint.get();
    // Committed since the last run, or frames left (written while it copied, or a reader still on an older
    // snapshot): again soon. Nothing new: back off towards idleMs, so an idle server's checkpointer wakes
    // about once a second.
    wait = log !== lastLog || checkpointed < log ? busyMs : Math.min(wait * 2, idleMs);
    lastLog = log;
  } catch (error) {
    report(error instanceof Error ? error.message : String(error));
    wait = idleMs;
  }
  timer = setTimeout(run, wait);
}

/** A failure that goes on (a full disk) is told once a minute, not at every try. */
let reported = { message: '', at: 0 };
function report(message) {
  const now = Date.now();
  if (message === reported.message && now - reported.at < 60_000) return;
  reported = { message, at: now };
  parentPort?.postMessage({ type: 'failed', message });
}

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort?.close();
});
