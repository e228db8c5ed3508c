import type { User } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { readStudent } from './load';
import { studentOf, type OnlineStudents, type Student } from './students';

/** The most students one read of loadBatch looks up. */
const BATCH_MAX = 256;

/**
 * Keeps the online students' cache (what `GET /api/random/counts` counts) filled: a student's profile is
 * read once when their first connection signs in, follows their `me_updated` (profile saves, verification
 * decisions; the restriction as last read, refreshed whenever they queue), and is dropped with their last
 * connection.
 */
export class OnlineProfiles {
  private readonly loading = new Set<string>();
  /** Students whose first connection signed in this turn, read together (loadBatch). */
  private batch: string[] = [];
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly students: OnlineStudents,
  ) {}

  connected(userId: string): void {
    if (this.stopped || this.students.get(userId) || this.loading.has(userId)) return;
    this.loading.add(userId);
    if (this.batch.push(userId) === 1) setImmediate(() => this.loadBatch());
  }

  /**
   * The turn's students in one read transaction, not one each: after a restart 1,000 students sign in
   * within a second, and each read's lock, BEGIN and COMMIT cost more than its two primary-key lookups.
   * At most BATCH_MAX a read, so no read holds the handle long.
   */
  private loadBatch(): void {
    const ids = this.batch.splice(0, BATCH_MAX);
    if (this.stopped) return void this.batch.splice(0);
    if (this.batch.length) setImmediate(() => this.loadBatch());
    const policy = this.deps.config.verificationPolicy;
    this.deps.transactor
      .read(async (tx) => {
        const found: Student[] = [];
        for (const userId of ids) {
          if (this.stopped) break;
          const read = await readStudent(tx, userId, policy);
          if (read) found.push(read.student);
        }
        return found;
      })
      .then((found) => {
        // Gone meanwhile: nothing to count.
        for (const student of found)
          if (!this.stopped && this.deps.realtime.isOnline(student.userId)) this.students.set(student);
      })
      .catch((err: unknown) => this.deps.log.error({ err }, 'random profile load failed'))
      .finally(() => {
        for (const userId of ids) this.loading.delete(userId);
      });
  }

  /** A fresh read (the student queued). */
  read(student: Student): void {
    if (!this.stopped) this.students.set(student);
  }

  changed(user: User): void {
    const cached = this.students.get(user.id);
    if (!cached || this.stopped) return;
    this.students.set(studentOf(user, this.deps.config.verificationPolicy, cached.restricted));
  }

  /** A connection closed: the student leaves the cache with their last one. */
  closed(userId: string): void {
    if (!this.deps.realtime.isOnline(userId)) this.students.drop(userId);
  }

  stop(): void {
    this.stopped = true;
    this.students.clear();
  }
}
