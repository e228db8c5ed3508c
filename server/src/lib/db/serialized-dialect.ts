import type {
  AbortableOperationOptions,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  TransactionSettings,
} from 'kysely';
import type { WriteLock } from './write-lock';

type CompileQuery = QueryCompiler['compileQuery'];

/**
 * Kysely's driver with the handle's WriteLock around each use of the connection (a query, or a whole Kysely
 * transaction), so Kysely never runs in the middle of the engine's commit and the engine never begins
 * inside a Kysely transaction.
 */
class SerializedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly lock: WriteLock,
  ) {}

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    if (this.lock.insideHolder)
      throw new Error('deps.db used inside a realtime commit: write through its `tx` instead');
    await this.lock.acquire();
    try {
      return await this.inner.acquireConnection(options);
    } catch (error) {
      this.lock.release();
      throw error;
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions) {
    try {
      await this.inner.releaseConnection(connection, options);
    } finally {
      this.lock.release();
    }
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.destroy(options);
  }
}

export function serializedDialect(inner: Dialect, lock: WriteLock): Dialect {
  return {
    createDriver: () => new SerializedDriver(inner.createDriver(), lock),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

/**
 * PostgreSQL: the pool has many connections, so Kysely needs no lock, but a Kysely query from inside a
 * realtime commit runs on another connection than the commit's and can wait for ever on the commit's row
 * locks (the commit awaits the query). Refused loudly, as on SQLite. Everything else is the inner driver's.
 */
class GuardedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly insideCommit: () => boolean,
  ) {}

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.init(options);
  }

  acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    if (this.insideCommit())
      return Promise.reject(
        new Error('deps.db used inside a realtime commit: write through its `tx` instead'),
      );
    return this.inner.acquireConnection(options);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.inner.releaseConnection(connection, options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.destroy(options);
  }
}

/** A PostgreSQL dialect whose queries refuse to run inside a realtime commit or read (`insideCommit`). */
export function guardedDialect(inner: Dialect, insideCommit: () => boolean): Dialect {
  return {
    createDriver: () => new GuardedDriver(inner.createDriver(), insideCommit),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}
