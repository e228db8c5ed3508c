/** The friends module's public surface: its routes, its engine tables, and the block check others enforce. */
export { friendRoutes } from './routes';
export { FRIEND_REQUEST_RATE, BLOCK_RATE, takeBlockRate, takeFriendRequestRate } from './limits';
export { friendMutationHandlers, friendChangeHooks } from './sync';
// blockUser: a report blocks too, unless the reporter unticks it (modules/reports).
export { isBlockedEitherWay, isBlockedWithAny, blockUser } from './blocks';
// sendFriendRequest: random talk's Add Friend sends the same request as REST (modules/random).
export { areFriends, sendFriendRequest } from './requests';
