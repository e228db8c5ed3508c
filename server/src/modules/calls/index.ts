/**
 * The calls module's public surface (issue 12): one-to-one call signalling as session frame handlers with
 * the engine's per-connection close hook, the call log's change hook, and the REST routes of the call
 * history and the ICE configuration.
 */
export { CallSignalling, CALL_OFFER_RATE, type CallTimings } from './signalling';
export { CoordinatedCalls } from './coordinated';
export { InProcessCallRegistry, type CallRegistry, type LiveCall } from './registry';
export { callChangeHooks } from './sync';
export { callLogRoutes, rtcRoutes } from './routes';
export { rtcConfigFor } from './turn';
