export * from './constants';
export * from './messages';
export * from './time';
export * from './platform';
export * from './entities/user';
export * from './auth/validation';
export * from './auth/schemas';
export * from './startup';
