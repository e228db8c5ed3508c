import type { ChangeHooks } from '../../realtime/registry';

/** The calls' change: the log of an ended call, pulled and pushed like any other (no hook needed). */
export const callChangeHooks: Pick<ChangeHooks, 'call_logged'> = {
  call_logged: {},
};
