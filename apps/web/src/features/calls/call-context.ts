import { createContext, useContext } from 'react';
import type { CallType, UserRef } from '@campus/protocol';
import type { CallState } from './call-state';

/** The global call layer: its state and what the screens may do with it. */
export interface CallApi {
  state: CallState;
  startCall(user: UserRef, callType: CallType): void;
  accept(): void;
  reject(): void;
  /** Hang up, cancel a ringing call, or close the overlay's message. */
  end(): void;
  toggleMute(): void;
  toggleCamera(): void;
}

export const CallContext = createContext<CallApi | null>(null);

export function useCall(): CallApi {
  const call = useContext(CallContext);
  if (!call) throw new Error('useCall needs the <CallLayer> of the signed-in shell above it.');
  return call;
}
