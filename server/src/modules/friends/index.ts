/** The friends module's public surface: its routes, its engine tables, and the block check others enforce. */
export { friendRoutes } from './routes';
export { FRIEND_REQUEST_RATE, BLOCK_RATE } from './limits';
export { friendMutationHandlers, friendChangeHooks } from './sync';
export { isBlockedEitherWay, isBlockedWithAny } from './blocks';
export { areFriends } from './requests';
