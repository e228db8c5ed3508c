/**
 * AppDeps lives at server/src/deps.ts (it names the realtime engine's interfaces, which lib/ may not
 * import); this re-export keeps existing imports working. New code imports from '../deps' / '../../deps'.
 */
export type { AppDeps } from '../deps';
