/** The directory module's public surface. */
export { directoryRoutes, DIRECTORY_RATE } from './routes';
export { searchUsers, findPublicProfile } from './repo';
export { areContacts, contactCheck } from './contacts';
