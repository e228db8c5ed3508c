import { undeliveredTo } from '../modules/chat/mutations-receipts';
import type { Connection } from './connection';
import { buildSnapshot } from './snapshot';

/**
 * `pull {cursor}`: every change after the cursor for the user's audiences, streamed as `changes` pages
 * (hasMore true means another page follows; the client does not pull again). The stored payloads are
 * concatenated as they are, never parsed. The whole catch-up is synchronous, so no commit can slip between
 * the last page and going live. A cursor of 0, older than the log keeps, or from another database gets
 * `sync_reset` with a snapshot instead.
 */
export function handlePull(conn: Connection, cursor: number): void {
  const { hub, options } = conn.rt;
  if (conn.syncing) return;
  const current = hub.currentSeq();
  if (cursor === 0 || cursor < hub.floor() || cursor > current) return void reset(conn);

  const size = options.pullPageSize;
  const reader = hub.log.reader([...conn.audiences], cursor, size);
  for (;;) {
    const rows = reader.next(size);
    const hasMore = rows.length === size && reader.hasMore();
    const next = hasMore ? rows[rows.length - 1]!.seq : current;
    let body = '';
    for (let i = 0; i < rows.length; i++) body += (i ? ',' : '') + rows[i]!.payload;
    conn.sendRaw(`{"type":"changes","changes":[${body}],"cursor":${next},"hasMore":${hasMore}}`);
    if (!hasMore) break;
  }
  conn.goLive(current);
  receiptsUpTo(conn, current);
}

/** Messages the pull (or snapshot) handed over are now delivered. */
function receiptsUpTo(conn: Connection, seq: number): void {
  const pending = undeliveredTo(conn.rt.deps, conn.userId, seq);
  if (pending.size) conn.rt.delivery.addAll(conn.userId, pending);
}

async function reset(conn: Connection): Promise<void> {
  conn.hold();
  const cursor = conn.rt.hub.currentSeq();
  try {
    const snapshot = await buildSnapshot(conn.rt.deps, conn.userId);
    if (conn.closed) return;
    conn.send({ type: 'sync_reset', cursor, ...snapshot });
    conn.goLive(cursor);
    receiptsUpTo(conn, cursor);
  } catch (err) {
    conn.rt.deps.log.error({ err }, 'sync snapshot failed');
    conn.close(1011, 'snapshot failed');
  }
}
