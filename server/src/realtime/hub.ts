import type SQLite from 'better-sqlite3';
import type { Change, EphemeralFrame } from '@campus/protocol';
import { changeLogStatements, type ChangeLogStatements } from './change-log';
import { DEFAULT_REALTIME_OPTIONS, type RealtimeOptions } from './options';

/** Omit that keeps a union a union (plain Omit would merge the change kinds into one shape). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type ChangeDraft = DistributiveOmit<Change, 'seq'>;

export interface ChangeWriter {
  emit(change: ChangeDraft, audiences: readonly string[]): Change;
  /** The seq the next `emit` of this transaction will get (a message row stores it before emitting). */
  nextSeq(): number;
}

/** A change after commit: the object and its wire JSON, serialised once and reused for every push. */
export interface CommittedChange {
  change: Change;
  json: string;
  /** `json` as UTF-8, encoded once: a string given to `ws` is measured and encoded again per recipient. */
  frame: Buffer;
  audiences: readonly string[];
}

/** What the hub needs of a WebSocket connection (realtime/connection.ts implements it). */
export interface HubConnection {
  readonly userId: string;
  readonly audiences: Set<string>;
  /** A committed change this connection may see: sent now, or held until its pull has finished. */
  push(item: CommittedChange): void;
  /** An ephemeral frame, already serialised. */
  sendRaw(json: string): void;
  close(code: number, reason: string): void;
}

export interface RealtimeHub {
  /** Runs `write` inside ONE synchronous better-sqlite3 transaction; emitted changes get seqs, are appended
   *  to change_log/change_audience in the same transaction, and after commit are pushed to every live
   *  connection whose audiences include one of theirs. Returns what `write` returned. */
  commit<T>(write: (tx: ChangeWriter) => T): T;
  /** Ephemeral frames (typing, presence) to every live connection of these users. */
  sendToUsers(userIds: Iterable<string>, frame: EphemeralFrame): void;
  isOnline(userId: string): boolean;
  /** A user's connections learn of a new group audience (after createGroup). */
  addGroupAudience(groupId: string, userIds: readonly string[]): void;
  close(): void;
}

/** The hub as the realtime module itself uses it: the registry of connections and the log. */
export interface RealtimeHubInternals extends RealtimeHub {
  readonly log: ChangeLogStatements;
  readonly options: RealtimeOptions;
  currentSeq(): number;
  /** Highest pruned seq: a cursor below it cannot be caught up. */
  floor(): number;
  register(conn: HubConnection): boolean;
  unregister(conn: HubConnection): boolean;
  addAudience(conn: HubConnection, audience: string): void;
  connectionsOf(userId: string): ReadonlySet<HubConnection> | undefined;
  audienceMembers(audience: string): ReadonlySet<HubConnection> | undefined;
  onlineUserCount(): number;
  forEachConnection(fn: (conn: HubConnection) => void): void;
  /** Runs on close (the WebSocket side stops its timers). */
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

export interface HubOptions {
  now: () => number;
  pruneEveryMs?: number;
  realtime?: Partial<RealtimeOptions>;
}

/** deps.realtime is typed as the public interface; the WebSocket side needs the rest of it. */
export function hubInternals(hub: RealtimeHub): RealtimeHubInternals {
  if (!('register' in hub)) throw new Error('not a hub made by createRealtimeHub');
  return hub as RealtimeHubInternals;
}

export function createRealtimeHub(sqlite: SQLite.Database, options: HubOptions): RealtimeHubInternals {
  const log = changeLogStatements(sqlite);
  let seq = log.maxSeq();
  let floor = log.floor();
  const prune = () => {
    floor = log.prune(options.now()) ?? floor;
  };
  prune();
  const pruneTimer = setInterval(prune, options.pruneEveryMs ?? 60 * 60 * 1000);
  pruneTimer.unref();

  const byAudience = new Map<string, Set<HubConnection>>();
  const byUser = new Map<string, Set<HubConnection>>();
  let pending: CommittedChange[] = [];
  let depth = 0;
  let closed = false;
  const closeHooks: (() => void)[] = [];

  const writer: ChangeWriter = {
    nextSeq: () => seq + 1,
    emit(draft, audiences) {
      const change = { ...draft, seq: seq + 1 } as Change;
      const json = JSON.stringify(change);
      log.append(change.seq, change.type, json, options.now(), audiences);
      seq = change.seq;
      pending.push({ change, json, frame: Buffer.from(json), audiences });
      return change;
    },
  };

  /**
   * Another process (the seed, an admin command) may have appended to the log since this one last wrote:
   * its entries are taken over (sent to their audiences with this commit) and the counter moves past them,
   * so seqs never collide and connected clients see no gap. One primary-key lookup per commit otherwise.
   */
  function adoptExternalEntries() {
    const latest = log.maxSeq();
    if (latest <= seq) return;
    for (const entry of log.entriesAfter(seq)) {
      const change = JSON.parse(entry.payload) as Change;
      pending.push({
        change,
        json: entry.payload,
        frame: Buffer.from(entry.payload),
        audiences: entry.audiences,
      });
    }
    seq = latest;
  }

  const runInTransaction = sqlite.transaction(<T>(write: (tx: ChangeWriter) => T, outermost: boolean): T => {
    if (outermost) adoptExternalEntries();
    return write(writer);
  });

  function fanOut(items: readonly CommittedChange[]) {
    for (const item of items) {
      if (item.audiences.length === 1) {
        const conns = byAudience.get(item.audiences[0]!);
        if (conns) for (const conn of conns) conn.push(item);
        continue;
      }
      const seen = new Set<HubConnection>();
      for (const audience of item.audiences) {
        const conns = byAudience.get(audience);
        if (!conns) continue;
        for (const conn of conns) {
          if (seen.has(conn)) continue;
          seen.add(conn);
          conn.push(item);
        }
      }
    }
  }

  function addToAudience(conn: HubConnection, audience: string) {
    conn.audiences.add(audience);
    let set = byAudience.get(audience);
    if (!set) byAudience.set(audience, (set = new Set()));
    set.add(conn);
  }

  const hub: RealtimeHubInternals = {
    log,
    options: { ...DEFAULT_REALTIME_OPTIONS, ...options.realtime },
    get closed() {
      return closed;
    },
    currentSeq: () => seq,
    floor: () => floor,
    commit(write) {
      // A commit inside a commit is a savepoint of the outer transaction: if it throws, only its own writes
      // and changes are undone; its changes go out with the outer ones after the outer commit.
      const startSeq = seq;
      const mark = pending.length;
      depth++;
      let result: ReturnType<typeof write>;
      try {
        // The outermost transaction takes the write lock at once (IMMEDIATE), so no other process can
        // append between reading the log's end and writing after it.
        result = (
          depth === 1 ? runInTransaction.immediate(write, true) : runInTransaction(write, false)
        ) as ReturnType<typeof write>;
      } catch (error) {
        seq = startSeq;
        pending.length = mark;
        throw error;
      } finally {
        depth--;
      }
      if (depth > 0) return result;
      const items = pending;
      pending = [];
      if (items.length) fanOut(items);
      return result;
    },
    sendToUsers(userIds, frame) {
      const json = JSON.stringify(frame);
      for (const userId of userIds) {
        const conns = byUser.get(userId);
        if (conns) for (const conn of conns) conn.sendRaw(json);
      }
    },
    isOnline: (userId) => byUser.has(userId),
    addGroupAudience(groupId, userIds) {
      const audience = `g:${groupId}`;
      for (const userId of userIds) {
        const conns = byUser.get(userId);
        if (conns) for (const conn of conns) addToAudience(conn, audience);
      }
    },
    register(conn) {
      for (const audience of conn.audiences) addToAudience(conn, audience);
      let set = byUser.get(conn.userId);
      const first = !set;
      if (!set) byUser.set(conn.userId, (set = new Set()));
      set.add(conn);
      return first;
    },
    unregister(conn) {
      for (const audience of conn.audiences) {
        const set = byAudience.get(audience);
        if (!set) continue;
        set.delete(conn);
        if (!set.size) byAudience.delete(audience);
      }
      const set = byUser.get(conn.userId);
      if (!set?.delete(conn)) return false;
      if (set.size) return false;
      byUser.delete(conn.userId);
      return true;
    },
    addAudience: addToAudience,
    connectionsOf: (userId) => byUser.get(userId),
    audienceMembers: (audience) => byAudience.get(audience),
    onlineUserCount: () => byUser.size,
    forEachConnection(fn) {
      for (const conns of byUser.values()) for (const conn of conns) fn(conn);
    },
    onClose(fn) {
      closeHooks.push(fn);
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(pruneTimer);
      for (const fn of closeHooks) fn();
      for (const conns of [...byUser.values()])
        for (const conn of [...conns]) conn.close(1001, 'server shutting down');
    },
  };
  return hub;
}
