/**
 * The confessions module's public surface: what the app, the CLI and other modules may import. The engine's
 * composition root takes the realtime handlers from sync.ts. Writes take the engine's `Tx` and run inside the
 * caller's commit (`deps.transactor.commit`); posts, reactions and comments also take the module's env (the
 * publisher that announces posts a few seconds later, the counts coalescer).
 */
export { confessionRoutes } from './routes';
export { nicknameOf, setNickname } from './nicknames';
export { confessionEnv, closeConfessions, type ConfessionEnv } from './env';
export { CONFESSION_COUNTS_WINDOW_MS } from './counts';
export { CONFESSION_PUBLISH_DELAY_MS } from './publisher';
export { postConfession, deleteConfession, type PostConfessionInput } from './writes';
export {
  addComment,
  setConfessionReaction,
  type CommentInput,
  type ConfessionReactionInput,
} from './reactions';
