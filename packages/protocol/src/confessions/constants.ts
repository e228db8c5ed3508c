/** Confession, comment and nickname limits of the accounts spec (section 9) and the feed's paging. */
export const CONFESSIONS = {
  feedPageSize: 10,
  prefetchMarginPx: 800,
  maxConfessionLength: 1000,
  maxCommentLength: 500,
  nicknameMin: 2,
  nicknameMax: 20,
  nicknameCheckDelayMs: 450,
  moderationDelayMs: 400,
  doubleTapMs: 300,
  highlightMs: 3000,
  cardFontMinPx: 18,
  cardFontMaxPx: 46,
  shareImagePixelRatio: 2,
  shareImageFileName: 'campus-talk-confession.png',
  shareWatermark: 'Shared from Campus Talk',
  /** Comments returned with a feed card; the comments panel pages the rest. */
  commentsPerCard: 3,
  commentsPageSize: 20,
  /** Badges show 99+ above this. */
  badgeMax: 99,
} as const;

/** The four reactions, in the card's order. */
export const REACTION_TYPES = ['relatable', 'funny', 'feelYou', 'shareWorthy'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const REACTION_LABELS: Record<ReactionType, string> = {
  relatable: 'Relatable',
  funny: 'Funny',
  feelYou: 'Feel you',
  shareWorthy: 'Share-worthy',
};

/** The spec's moods: emoji to label; 'sarcastic' is the default. */
export const MOODS = [
  { tag: '😢', id: 'sad', label: 'Sad' },
  { tag: '😠', id: 'angry', label: 'Angry' },
  { tag: '😊', id: 'happy', label: 'Happy' },
  { tag: '😏', id: 'sarcastic', label: 'Sarcastic' },
  { tag: '😍', id: 'love', label: 'Love/Crush' },
  { tag: '😐', id: 'neutral', label: 'Neutral' },
] as const;
export type MoodTag = (typeof MOODS)[number]['tag'];
export const DEFAULT_MOOD: MoodTag = '😏';

export function moodLabel(tag: string): string {
  return MOODS.find((m) => m.tag === tag)?.label ?? 'Sarcastic';
}

/** The name shown for an author without a nickname. */
export const ANON = 'Anon';
