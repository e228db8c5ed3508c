/** The conversations module's public surface. */
export { conversationRoutes, CONVERSATIONS_LIMIT } from './routes';
