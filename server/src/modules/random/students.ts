import {
  accessLevel,
  type FocusedFilters,
  type RandomCounts,
  type RandomKind,
  type RandomPartner,
  type User,
  type VerificationPolicy,
} from '@campus/protocol';
import { collegeName, countryOf, satisfiesAll, type MatchProfile } from './match-profile';

/** A student as random talk sees them: what the partner is shown, what filters match, whether they may queue. */
export interface Student {
  readonly userId: string;
  readonly card: RandomPartner;
  readonly profile: MatchProfile;
  /** College, course and year are set (the spec's rule for Random Talk). */
  readonly complete: boolean;
  /** The access policy gives them full access. */
  readonly verified: boolean;
  /** Random talk was closed to them when last read (a report's hold or an admin's suspension). */
  readonly restricted: boolean;
}

export const isEligible = (s: Student) => s.verified && s.complete && !s.restricted;

/** From the user as the server presents them (a row through `toUser`, or a `me_updated` change). */
export function studentOf(user: User, policy: VerificationPolicy, restricted: boolean): Student {
  const college = collegeName(user.college);
  return {
    userId: user.id,
    card: {
      firstName: user.firstName,
      // Never the stored picture: its URL is keyed by the user's id (/files/avatars/<id>), which would name
      // the partner. The card's initials stand in for it.
      profilePictureUrl: null,
      college,
      course: user.course,
    },
    profile: {
      userId: user.id,
      college,
      country: countryOf(user.college),
      skillLevel: user.skillLevel ?? null,
      branch: user.branch ?? null,
      interests: user.interests ?? [],
    },
    complete: college !== null && !!user.course && user.year !== null,
    verified: accessLevel(user.documentStatus, policy) === 'full',
    restricted,
  };
}

/**
 * The students online now, as random talk last read them: what `GET /api/random/counts` counts, without a
 * table scan per request. Filled when a student connects or queues, refreshed by their profile's
 * `me_updated`, emptied when their last connection closes. Per node (issue 14: a shared hash).
 */
export interface OnlineStudents {
  get(userId: string): Student | undefined;
  set(student: Student): void;
  drop(userId: string): void;
  all(): Iterable<Student>;
  clear(): void;
}

export class InProcessStudents implements OnlineStudents {
  private readonly byId = new Map<string, Student>();
  get(userId: string) {
    return this.byId.get(userId);
  }
  set(student: Student) {
    this.byId.set(student.userId, student);
  }
  drop(userId: string) {
    this.byId.delete(userId);
  }
  all() {
    return this.byId.values();
  }
  clear() {
    this.byId.clear();
  }
}

/**
 * Students online now who could be matched with the asker (eligible, not the asker, no block either way)
 * and satisfy every chosen group; of those, how many wait in each queue. One pass over the online students.
 */
export function countMatches(
  askerId: string,
  blocked: ReadonlySet<string>,
  filters: FocusedFilters,
  students: Iterable<Student>,
  waitingKind: (userId: string) => RandomKind | undefined,
): RandomCounts {
  const counts: RandomCounts = { total: 0, waiting: { audio: 0, video: 0, chat: 0 } };
  for (const s of students) {
    if (s.userId === askerId || blocked.has(s.userId) || !isEligible(s)) continue;
    if (!satisfiesAll(filters, s.profile)) continue;
    counts.total++;
    const kind = waitingKind(s.userId);
    if (kind) counts.waiting[kind]++;
  }
  return counts;
}
