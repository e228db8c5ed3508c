/**
 * The random module's public surface (issue 13): random and focused talk as session frame handlers with the
 * engine's connection hooks, the pure matchmaker (unit-tested), and the counts route.
 */
export { RandomTalk, RANDOM_JOIN_RATE, type RandomTimings } from './talk';
export { CoordinatedRandomTalk } from './coordinated';
export { randomRoutes, RANDOM_COUNTS_RATE } from './routes';
export { Matchmaker, MATCH_TIMINGS, type MatchTimings, type Seeker, type Match } from './matchmaker';
export { randomStateOf, type RandomState } from './state';
