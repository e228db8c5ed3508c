/**
 * The notifications module's public surface: what other modules and the app may import. Writes take the
 * engine's transaction first and run inside the caller's commit.
 */
export {
  notify,
  markNotificationRead,
  forgetConfession,
  type NotifyInput,
  type MarkReadOutcome,
} from './writes';
export { notificationRoutes, pushRoutes, PUSH_REGISTER_RATE } from './routes';
export { MAX_PUSH_SUBSCRIPTIONS } from './repo';
export { PushQueue } from './push-queue';
