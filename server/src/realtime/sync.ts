import { CLOSE_CODES, encodeChangesPage } from '@campus/protocol';
import type { Logger } from '../lib/logger';
import type { LiveConnection } from './live-connection';
import type { RealtimeOptions } from './options';
import type { SessionHooks } from './registry';
import type { SqliteTransactor } from './sqlite-transactor';

export interface PullContext {
  transactor: SqliteTransactor;
  options: RealtimeOptions;
  session: SessionHooks;
  log: Logger;
}

/**
 * `pull {cursor}`: every change after the cursor for the connection's audiences, streamed as `changes`
 * pages (hasMore true means another page follows; the client does not pull again). The stored payloads are
 * joined as they are, never parsed. The whole catch-up is synchronous, so no commit can slip between the
 * last page and going live. A cursor of 0, older than the log keeps, or from another database gets
 * `sync_reset` with a snapshot instead.
 */
export function handlePull(ctx: PullContext, conn: LiveConnection, cursor: number): void {
  const { transactor, options } = ctx;
  if (conn.syncing) return;
  const current = transactor.currentSeq();
  if (cursor === 0 || cursor < transactor.floor() || cursor > current) return void reset(ctx, conn);

  const size = options.pullPageSize;
  const reader = transactor.log.reader([...conn.audiences], cursor, size);
  for (;;) {
    const rows = reader.next(size);
    // Only what has committed (a commit still open would show its own rows to this handle).
    while (rows.length && rows[rows.length - 1]!.seq > current) rows.pop();
    const hasMore = rows.length === size && reader.hasMore();
    const next = hasMore ? rows[rows.length - 1]!.seq : current;
    conn.sendEncoded(
      encodeChangesPage(
        rows.map((row) => row.payload),
        next,
        hasMore,
      ),
    );
    if (!hasMore) break;
  }
  conn.goLive(current);
  ctx.session.caughtUp(conn, current);
}

async function reset(ctx: PullContext, conn: LiveConnection): Promise<void> {
  conn.hold();
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
