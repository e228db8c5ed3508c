/**
 * The benchmark's population, the same for every server: 1,000 users in 50 groups of 20. User i belongs to
 * group floor(i / 20) and is its member number i % 20, so a delivery is tracked with one bit per member.
 */
export const GROUP_SIZE = 20;
export const GROUP_COUNT = 50;
export const CLIENT_COUNT = GROUP_SIZE * GROUP_COUNT;

/** Message text of a typical chat line (64 characters), the same for every server. */
export const MESSAGE_CONTENT = 'Are we still meeting at the library at four? I will bring notes.';

export function userId(index: number): string {
  return `bench-user-${String(index).padStart(4, '0')}`;
}

export function groupIdOf(userIndex: number): string {
  return groupId(Math.floor(userIndex / GROUP_SIZE));
}

export function groupId(group: number): string {
  return `bench-group-${String(group).padStart(2, '0')}`;
}

/**
 * The node a client connects to when the server runs as several: clients alternate, so each group of 20
 * has the same number of members on every node (10 and 10 on two), and a message reaches half its
 * audience on the sender's node and half through the other.
 */
export function nodeOfClient(index: number, nodeCount: number): number {
  return index % nodeCount;
}

export function firstName(index: number): string {
  return `Student${index}`;
}

/** A small deterministic PRNG (mulberry32), so every server gets the same sequence of senders. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
