/** The friends module's public surface: its routes, its engine tables, and the block check others enforce. */
export { friendRoutes, FRIEND_REQUEST_RATE, BLOCK_RATE } from './routes';
export { friendMutationHandlers, friendChangeHooks } from './sync';
export { isBlockedEitherWay } from './blocks';
export { areFriends } from './requests';
