import { CLOSE_CODES, encodeChangesPage } from '@campus/protocol';
import type { Logger } from '../lib/logger';
import type { LiveConnection } from './live-connection';
import type { RealtimeOptions } from './options';
import type { SessionHooks } from './registry';
import type { EngineTransactor } from './engine-transactor';

export interface PullContext {
  transactor: EngineTransactor;
  options: RealtimeOptions;
  session: SessionHooks;
  log: Logger;
}

/**
 * `pull {cursor}`: every change after the cursor for the connection's audiences, streamed as `changes`
 * pages (hasMore true means another page follows; the client does not pull again). The stored payloads are
 * joined as they are, never parsed. Live changes are held from the start: the pages carry everything up to
 * the seq read then, in one view of the log (the transactor's readLog), and going live sends only what came
 * after it, so nothing is lost or sent twice across the handoff. On SQLite every read is a synchronous
 * statement behind a settled promise. A cursor of 0, older than the log keeps, or from another database
 * gets `sync_reset` with a snapshot instead; one ahead of this node (another node's, Redis late here) first
 * lets the bus catch up from the log.
 */
export function handlePull(ctx: PullContext, conn: LiveConnection, cursor: number): void {
  if (conn.syncing) return;
  // Before the first await: what commits from now on is held until the pages are out.
  conn.hold();
  void pull(ctx, conn, cursor);
}

async function pull(ctx: PullContext, conn: LiveConnection, cursor: number): Promise<void> {
  const { transactor, options } = ctx;
  try {
    let current = transactor.currentSeq();
    if (cursor > current) {
      await transactor.catchUp();
      current = transactor.currentSeq();
    }
    if (cursor === 0 || cursor < transactor.floor() || cursor > current) return await reset(ctx, conn);
    const size = options.pullPageSize;
    const caughtUp = await transactor.readLog(async (log) => {
      // Another node may have pruned since this one last looked: checked in the pages' own view.
      if (cursor < (await log.floor())) return false;
      const reader = log.reader([...conn.audiences], cursor, current, size);
      for (;;) {
        const rows = await reader.next(size);
        if (conn.closed) return true;
        const hasMore = rows.length === size && (await reader.hasMore());
        const next = hasMore ? rows[rows.length - 1]!.seq : current;
        conn.sendEncoded(
          encodeChangesPage(
            rows.map((row) => row.payload),
            next,
            hasMore,
          ),
        );
        if (!hasMore) return true;
      }
    });
    if (!caughtUp) return await reset(ctx, conn);
    if (conn.closed) return;
    conn.goLive(current);
    ctx.session.caughtUp(conn, current);
  } catch (err) {
    ctx.log.error({ err }, 'sync pull failed');
    conn.close(CLOSE_CODES.serverError, 'pull failed');
  }
}

async function reset(ctx: PullContext, conn: LiveConnection): Promise<void> {
  // A pull holds already; holding again would drop the acks held meanwhile.
  if (!conn.syncing) conn.hold();
  const cursor = ctx.transactor.currentSeq();
  try {
    const snapshot = await ctx.session.snapshot(conn.userId);
    if (conn.closed) return;
    conn.send({ type: 'sync_reset', cursor, ...snapshot });
    conn.goLive(cursor);
    ctx.session.caughtUp(conn, cursor);
  } catch (err) {
    ctx.log.error({ err }, 'sync snapshot failed');
    conn.close(CLOSE_CODES.serverError, 'snapshot failed');
  }
}
