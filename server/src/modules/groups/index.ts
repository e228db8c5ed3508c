/** The groups module's public surface. */
export { createGroup, insertGroup, countStrangers, type CreateGroupOptions } from './service';
export { groupMembership, type Membership } from './repo';
export { memberGroupId, groupNotFound } from './access';
export { groupRoutes, GROUP_CREATE_RATE, GROUP_STRANGERS_RATE } from './routes';
