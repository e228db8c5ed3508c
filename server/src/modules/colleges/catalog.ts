import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Logger } from '../../lib/logger';
import type { Transactor } from '../../realtime/transaction';
import { mergeRecords } from './records';
import type { Dialect } from '../../lib/db/portable-sql';
import { catalogVersion, listedIn, loadOf, recordLoad, toOption, writeRecords } from './repo';
import { swotSource, type CollegeSource } from './swot-source';

/** A built list file: its bytes, gzipped bytes and strong ETag (a hash of the bytes). */
export interface CollegeFile {
  body: Buffer;
  gzip: Buffer;
  etag: string;
  count: number;
  builtMs: number;
}

export interface DefaultLoad {
  source: string;
  /** false when the source was loaded before (by an earlier process on this database). */
  loaded: boolean;
  colleges: number;
  ms: number;
}

/** Retry a failed default load at most this often (a missing package must not cost a scan per request). */
const RETRY_MS = 60_000;

/**
 * The catalog of one database: the default data set loaded lazily, once, on first need (never at start),
 * and the served files built once per catalog version. A request costs one single-row version read and a
 * map lookup; a file is rebuilt only after the listed colleges changed (an import, a default load).
 */
export class CollegeCatalog {
  private source: CollegeSource | null | undefined;
  private loading: Promise<DefaultLoad | null> | undefined;
  private failedAt = -Infinity;
  private version = -1;
  private files = new Map<string, Promise<CollegeFile>>();
  /** Completed default loads of this process (tests check there is one). */
  readonly loads: DefaultLoad[] = [];

  constructor(
    private readonly transactor: Transactor,
    public log: Logger | undefined,
  ) {}

  /** Replaces the default data set (tests load a small fixture through the same path); null: none. */
  useSource(source: CollegeSource | null): void {
    this.source = source;
    this.loading = undefined;
  }

  /** Loads the default data set if this database has not had it; concurrent callers share one load. */
  ensureDefault(): Promise<DefaultLoad | null> {
    if (!this.loading) {
      if (Date.now() - this.failedAt < RETRY_MS) return Promise.resolve(null);
      this.loading = this.loadDefault().catch((err: unknown) => {
        this.failedAt = Date.now();
        this.loading = undefined;
        this.log?.error({ err }, 'colleges: the default data set could not be loaded');
        return null;
      });
    }
    return this.loading;
  }

  private async loadDefault(): Promise<DefaultLoad | null> {
    if (this.source === undefined) this.source = swotSource();
    const source = this.source;
    if (!source) return null;
    const started = performance.now();
    const known = await this.transactor.read((tx) => tx.first(loadOf, source.name));
    if (known) return { source: source.name, loaded: false, colleges: 0, ms: 0 };
    const records = mergeRecords(await source.read());
    const summary = await this.transactor.commit(async (tx) => {
      // Another process (or an earlier load of ours) may have got here first.
      if (await tx.first(loadOf, source.name)) return null;
      const s = await writeRecords(tx, records, source.name);
      const ms = Math.round(performance.now() - started);
      await tx.run(recordLoad, source.name, new Date(tx.now).toISOString(), records.length, ms);
      return s;
    });
    const ms = Math.round(performance.now() - started);
    const load = { source: source.name, loaded: summary !== null, colleges: records.length, ms };
    if (summary) {
      this.loads.push(load);
      this.log?.info({ ...load, ...summary }, 'colleges: default data set loaded');
    }
    return load;
  }

  /**
   * A country's file, or India's file of one state; built on first request per catalog version. `dialect`:
   * the database's (`dialectOf(deps.db)`), whose index orders the names.
   */
  async file(country: string, stateCode: string | null, dialect: Dialect): Promise<CollegeFile> {
    await this.ensureDefault();
    const version = (await this.transactor.read((tx) => tx.first(catalogVersion)))?.version ?? 0;
    if (version !== this.version) {
      this.version = version;
      this.files.clear();
    }
    const name = stateCode ? `${country}-${stateCode}` : country;
    let file = this.files.get(name);
    if (!file) {
      file = this.build(country, stateCode, dialect);
      this.files.set(name, file);
      file.catch(() => this.files.delete(name));
    }
    return file;
  }

  private async build(country: string, stateCode: string | null, dialect: Dialect): Promise<CollegeFile> {
    const started = performance.now();
    const listed = listedIn[dialect];
    const rows = await this.transactor.read((tx) =>
      stateCode ? tx.all(listed.state, country, stateCode) : tx.all(listed.country, country),
    );
    const body = Buffer.from(JSON.stringify(rows.map(toOption)));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const gzip = gzipSync(body, { level: 9 });
    return { body, gzip, etag, count: rows.length, builtMs: performance.now() - started };
  }
}

const catalogs = new WeakMap<Transactor, CollegeCatalog>();
/** The catalog of the database behind `transactor` (one per server, shared by routes and lookups). */
export function collegeCatalog(transactor: Transactor, log?: Logger): CollegeCatalog {
  let catalog = catalogs.get(transactor);
  if (!catalog) {
    catalog = new CollegeCatalog(transactor, log);
    catalogs.set(transactor, catalog);
  }
  catalog.log ??= log;
  return catalog;
}
