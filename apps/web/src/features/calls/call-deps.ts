import { createContext } from 'react';
import { browserGetUserMedia, type GetUserMedia } from './media';
import { createSimplePeer, type PeerFactory } from './peer';
import { createRingtone, type Ringtone } from './ringtone';

/** What the call layer takes from the device; tests put fakes in its place. */
export interface CallDeps {
  createPeer: PeerFactory;
  getUserMedia: GetUserMedia;
  createRingtone(): Ringtone;
  isHidden(): boolean;
  now(): number;
}

export const browserCallDeps: CallDeps = {
  createPeer: createSimplePeer,
  getUserMedia: browserGetUserMedia,
  createRingtone,
  isHidden: () => document.hidden,
  now: () => Date.now(),
};

export const CallDepsContext = createContext<CallDeps>(browserCallDeps);
