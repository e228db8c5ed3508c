export * from './constants';
export * from './messages';
export * from './rest';
export * from './rules';
