import { focusedFiltersSchema, type FocusedFilters, type RandomKind } from '@campus/protocol';

/** The spec's navigation payload to the call and chat screens, as this app carries it (router state). */
export interface RandomNavState {
  /** Focused talk's filters; absent for random talk. */
  filters?: FocusedFilters;
  /** Chosen from an options screen: the search starts on arrival. */
  start?: boolean;
}

export const RANDOM_PATHS: Record<RandomKind, string> = {
  audio: '/random-audio',
  video: '/random-video',
  chat: '/random-chat',
};

/** The router state read defensively (a reload or a hand-typed URL carries none). */
export function readRandomNav(state: unknown): { filters: FocusedFilters | null; start: boolean } {
  const raw = (state ?? {}) as { filters?: unknown; start?: unknown };
  const parsed = raw.filters === undefined ? null : focusedFiltersSchema.safeParse(raw.filters);
  return { filters: parsed?.success ? parsed.data : null, start: raw.start === true };
}
