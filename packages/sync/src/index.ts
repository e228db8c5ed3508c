export { openUserDatabase, deleteUserDatabase, type CampusDatabase } from './database';
