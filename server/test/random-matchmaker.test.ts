import { describe, expect, it } from 'vitest';
import { EMPTY_FILTERS, RANDOM, type FocusedFilters, type RandomKind } from '@campus/protocol';
import { Matchmaker, type Match } from '../src/modules/random';
import { countryOf, scoreOf, type MatchProfile } from '../src/modules/random/match-profile';
import { countMatches, type Student } from '../src/modules/random/students';

/**
 * The matchmaker is pure (no I/O, the clock injected): these drive it with a fake clock. The holder is the
 * student's device name, so a test can tell which connection a wait belongs to.
 */
function setup() {
  let now = 1_000_000;
  const mm = new Matchmaker<string>(() => now);
  const advance = (ms: number) => (now += ms);
  const join = (
    userId: string,
    options: {
      kind?: RandomKind;
      filters?: Partial<FocusedFilters>;
      profile?: Partial<MatchProfile>;
      blocked?: string[];
      device?: string;
    } = {},
  ) =>
    mm.join({
      userId,
      ticket: `t-${userId}-${now}`,
      kind: options.kind ?? 'chat',
      filters: { ...EMPTY_FILTERS, ...options.filters },
      profile: profile(userId, options.profile),
      blocked: new Set(options.blocked),
      holder: options.device ?? `${userId}-device`,
    });
  return { mm, join, advance };
}

function profile(userId: string, p: Partial<MatchProfile> = {}): MatchProfile {
  return { userId, college: null, country: null, skillLevel: null, branch: null, interests: [], ...p };
}

const pair = (m: Match<string> | undefined) => (m ? [m.first.userId, m.second.userId] : undefined);

describe('the matchmaker', () => {
  it('matches the longest-waiting student first, and the earlier waiter initiates', () => {
    const { mm, join, advance } = setup();
    expect(join('ann').match).toBeUndefined();
    advance(1000);
    // Another queue is another kind of room: never matched across.
    expect(join('vic', { kind: 'video' }).match).toBeUndefined();
    advance(1000);
    expect(join('bob', { kind: 'audio' }).match).toBeUndefined();
    advance(1000);
    expect(pair(join('cat').match)).toEqual(['ann', 'cat']);
    expect(join('dan').match).toBeUndefined();
    advance(1000);
    expect(pair(join('eve', { kind: 'audio' }).match)).toEqual(['bob', 'eve']);
    expect(mm.size()).toBe(2);
    expect(mm.size('video')).toBe(1);
    expect(mm.waiting('dan')?.kind).toBe('chat');
    expect(mm.waiting('ann')).toBeUndefined();
  });

  it('of several waiting, takes the one waiting longest', () => {
    const { join, advance } = setup();
    join('ann', { blocked: ['bob', 'cat'] });
    advance(10);
    join('bob', { blocked: ['cat'] });
    advance(10);
    // Cat is blocked by both of those (and they by each other): all three wait.
    join('cat');
    advance(10);
    expect(pair(join('dan').match)).toEqual(['ann', 'dan']);
    expect(pair(join('eve').match)).toEqual(['bob', 'eve']);
    expect(pair(join('fay').match)).toEqual(['cat', 'fay']);
  });

  it('never matches a blocked pair, whichever blocked, nor a pair blocked while waiting', () => {
    const { mm, join, advance } = setup();
    join('ann', { blocked: ['bob'] });
    expect(join('bob').match).toBeUndefined();
    // The other way round: the newcomer's own block list.
    expect(join('cat', { kind: 'video' }).match).toBeUndefined();
    expect(join('dan', { kind: 'video', blocked: ['cat'] }).match).toBeUndefined();
    // A block made live, while both wait.
    join('eve', { kind: 'audio' });
    mm.separate('fay', 'eve');
    expect(join('fay', { kind: 'audio' }).match).toBeUndefined();
    mm.separate('gus', 'hal');
    // Nor after any wait: time widens searches and allows rematches, never blocks.
    advance(RANDOM.rematchCooldownMs * 2);
    expect(mm.tick().matches).toEqual([]);
    expect(mm.size()).toBe(6);
  });

  it('does not rematch a pair within the cooldown, unless one of them waited past the fallback', () => {
    const { mm, join, advance } = setup();
    join('ann');
    expect(pair(join('bob').match)).toEqual(['ann', 'bob']);
    advance(1000);
    join('ann');
    expect(join('bob').match).toBeUndefined();
    // Someone new is preferred at once.
    expect(pair(join('cat').match)).toEqual(['ann', 'cat']);
    join('ann');
    advance(RANDOM.rematchFallbackAfterMs - 1);
    expect(mm.tick().matches).toEqual([]);
    // Bob has now waited long enough with nobody else: an old partner beats waiting on.
    advance(1);
    expect(mm.tick().matches.map(pair)).toEqual([['bob', 'ann']]);
    // Past the cooldown the pair is like any other.
    advance(RANDOM.rematchCooldownMs);
    join('bob');
    expect(pair(join('ann').match)).toEqual(['bob', 'ann']);
  });

  it('keeps each student in one queue: joining again from another device replaces the wait', () => {
    const { mm, join } = setup();
    const first = join('ann', { kind: 'audio', device: 'phone' });
    const again = join('ann', { kind: 'chat', device: 'laptop' });
    expect(again.replaced).toBe(first.seeker);
    expect(again.replaced?.holder).toBe('phone');
    expect(mm.size('audio')).toBe(0);
    expect(mm.size('chat')).toBe(1);
    expect(mm.waiting('ann')?.holder).toBe('laptop');
    // Never matched with herself.
    expect(join('ann', { kind: 'chat', device: 'tablet' }).match).toBeUndefined();
    expect(mm.size()).toBe(1);
  });

  it('leaving (a closed connection, Cancel) takes the student out at once', () => {
    const { mm, join } = setup();
    join('ann');
    expect(mm.leave('ann')?.userId).toBe('ann');
    expect(mm.leave('ann')).toBeUndefined();
    expect(join('bob').match).toBeUndefined();
    expect(mm.size()).toBe(1);
  });

  it('focused: the candidate satisfying most chosen groups wins, ties to the longest waiting', () => {
    const { mm, join, advance } = setup();
    // Four plain seekers kept apart by blocks, so they wait for the focused ones.
    const apart = ['ann', 'bob', 'cat', 'dan'];
    join('ann', { blocked: apart, profile: { interests: ['Music'], branch: 'CS' } });
    advance(10);
    join('bob', { blocked: apart, profile: { interests: ['Music'], branch: 'ECE' } });
    advance(10);
    join('cat', { blocked: apart, profile: { interests: ['Art'], branch: 'ECE', skillLevel: 'Advanced' } });
    advance(10);
    join('dan', { blocked: apart, profile: { interests: ['Music'], branch: 'ECE' } });
    advance(10);
    // Music and ECE: Bob and Dan satisfy both, Bob has waited longer; Ann (music only) does not bind.
    const m = join('eve', { filters: { interests: ['Music'], branch: ['ECE'] } }).match;
    expect(pair(m)).toEqual(['bob', 'eve']);
    expect([m!.second.chosen, m!.second.binding]).toEqual([2, 2]);
    // Three groups nobody satisfies all of: a wait. Two steps later only one binds: Ann (1 of 3) has waited
    // longest, but Cat (2 of 3: ECE, Advanced) and Dan (2: music, ECE) satisfy more; Cat came first.
    const wants = {
      interests: ['Music' as const],
      branch: ['ECE' as const],
      skillLevel: ['Advanced' as const],
    };
    expect(join('fay', { filters: wants }).match).toBeUndefined();
    advance(2 * RANDOM.widenEveryMs);
    const events = mm.tick();
    expect(events.matches.map(pair)).toEqual([['cat', 'fay']]);
    expect(
      scoreOf(
        { ...EMPTY_FILTERS, interests: ['Art', 'Dance'], branch: ['CS'] },
        profile('x', { interests: ['Art'] }),
      ),
    ).toBe(1);
  });

  it('focused: binds every chosen group at first and one fewer every widening step, telling the seeker', () => {
    const { mm, join, advance } = setup();
    join('ann', { profile: { interests: ['Music'], college: 'MIT', skillLevel: 'Beginner' } });
    const filters = {
      interests: ['Music' as const],
      college: ['Stanford'],
      skillLevel: ['Advanced' as const],
    };
    const { seeker, match } = join('bob', { filters });
    expect(match).toBeUndefined();
    expect(seeker.binding).toBe(3);
    advance(RANDOM.widenEveryMs - 1);
    expect(mm.tick()).toEqual({ matches: [], widened: [] });
    advance(1);
    let events = mm.tick();
    expect(events.matches).toEqual([]);
    expect(events.widened.map((s) => [s.userId, s.binding])).toEqual([['bob', 2]]);
    // Ann satisfies one group of three (music): found once only one binds.
    advance(RANDOM.widenEveryMs);
    events = mm.tick();
    expect(events.widened).toEqual([]);
    expect(events.matches.map(pair)).toEqual([['ann', 'bob']]);
    expect(events.matches[0]!.second.binding).toBe(1);
  });

  it('focused: both sides count, each with its own binding; a plain seeker fits a widened one', () => {
    const { mm, join, advance } = setup();
    join('ann', { filters: { branch: ['CS'] }, profile: { branch: 'ECE' } });
    // Bob wants nothing but is no CS student: Ann's filter still binds.
    expect(join('bob', { profile: { branch: 'ME' } }).match).toBeUndefined();
    // Cat wants ECE students and is CS herself: both sides satisfied; picked over Bob though he came first.
    expect(pair(join('cat', { filters: { branch: ['ECE'] }, profile: { branch: 'CS' } }).match)).toEqual([
      'ann',
      'cat',
    ]);
    join('dan', { filters: { branch: ['CS'] }, profile: { branch: 'IT' } });
    advance(RANDOM.widenEveryMs);
    // Dan's search widened to nothing binding: Bob fits now.
    expect(mm.tick().matches.map(pair)).toEqual([['bob', 'dan']]);
  });
});

describe('focused talk counts', () => {
  const student = (userId: string, p: Partial<MatchProfile> = {}, s: Partial<Student> = {}): Student => ({
    userId,
    card: { firstName: userId, profilePictureUrl: null, college: null, course: null },
    profile: profile(userId, p),
    complete: true,
    verified: true,
    restricted: false,
    ...s,
  });
  const online = [
    student('me', { interests: ['Music'] }),
    student('ann', { interests: ['Music'], country: 'India' }),
    student('bob', { interests: ['Art'], country: 'India' }),
    student('cat', { interests: ['Music', 'Art'], country: 'UK' }),
    student('dan', { interests: ['Music'], country: 'India' }, { verified: false }),
    student('eve', { interests: ['Music'], country: 'India' }, { complete: false }),
    student('fay', { interests: ['Music'], country: 'India' }, { restricted: true }),
    student('gus', { interests: ['Music'], country: 'India' }),
  ];
  const waiting: Record<string, RandomKind> = { ann: 'chat', cat: 'video', gus: 'chat', dan: 'audio' };

  it('counts eligible students online but the asker and those blocked either way, and who waits where', () => {
    const none = countMatches('me', new Set(['gus']), EMPTY_FILTERS, online, (id) => waiting[id]);
    expect(none).toEqual({ total: 3, waiting: { audio: 0, video: 1, chat: 1 } });
  });

  it('with filters, counts those satisfying every chosen group', () => {
    const filters = { ...EMPTY_FILTERS, interests: ['Music' as const], country: ['India' as const] };
    expect(countMatches('me', new Set(), filters, online, (id) => waiting[id])).toEqual({
      total: 2,
      waiting: { audio: 0, video: 0, chat: 2 },
    });
  });

  it("maps a college's ISO country onto the spec's options", () => {
    expect(countryOf({ name: 'IIT', country: 'IN' })).toBe('India');
    expect(countryOf({ name: 'MIT', country: 'us' })).toBe('USA');
    expect(countryOf({ name: 'UI', country: 'ID' })).toBe('Other');
    expect(countryOf('Typed by hand')).toBeNull();
    expect(countryOf(null)).toBeNull();
  });
});
