import type { User } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { readStudent } from './load';
import { studentOf, type OnlineStudents, type Student } from './students';

/**
 * Keeps the online students' cache (what `GET /api/random/counts` counts) filled: a student's profile is
 * read once when their first connection signs in, follows their `me_updated` (profile saves, verification
 * decisions; the restriction as last read, refreshed whenever they queue), and is dropped with their last
 * connection.
 */
export class OnlineProfiles {
  private readonly loading = new Set<string>();
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly students: OnlineStudents,
  ) {}

  connected(userId: string): void {
    if (this.stopped || this.students.get(userId) || this.loading.has(userId)) return;
    this.loading.add(userId);
    this.deps.transactor
      .read((tx) => readStudent(tx, userId, this.deps.config.verificationPolicy))
      .then((found) => {
        // Gone meanwhile: nothing to count.
        if (found && !this.stopped && this.deps.realtime.isOnline(userId)) this.students.set(found.student);
      })
      .catch((err: unknown) => this.deps.log.error({ err }, 'random profile load failed'))
      .finally(() => this.loading.delete(userId));
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
