import { createContext } from 'react';
import { browserBlurVideo, type BlurVideo } from './blur-video';

/**
 * What random talk takes from the device beyond the call layer's CallDeps (peer, media, clock): the
 * sender-side blur of random video. Tests put a fake in its place.
 */
export interface RandomDeps {
  blurVideo: BlurVideo;
}

export const RandomDepsContext = createContext<RandomDeps>({ blurVideo: browserBlurVideo });
