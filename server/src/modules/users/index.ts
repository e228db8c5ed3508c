/** The users module's public surface: the user row, its mappers and the user-ref cache. */
export {
  toUser,
  findUserByEmail,
  findUserById,
  insertUser,
  setUserRole,
  setPasswordHash,
  touchLastActive,
  countUsers,
  type UserRow,
  type NewUser,
} from './repo';
export {
  toUserRef,
  toUserListEntry,
  userRefsOf,
  UserRefs,
  type UserRefRow,
  type UserListRow,
  type UserRefReader,
} from './refs';
export { participationCheck } from './access';
