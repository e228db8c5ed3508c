/**
 * Start-up queries (spec section 2): `action=open_confession&confessionId=…` opens Confessions at that
 * confession; `action=open_chat&partnerId=…` is only logged. Used by the web app on load and by the
 * desktop app for deep links, so both read a link the same way.
 */
export type StartupAction =
  { kind: 'open_confession'; route: string } | { kind: 'open_chat'; partnerId: string } | { kind: 'none' };

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export function parseStartupQuery(search: string | URLSearchParams): StartupAction {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const action = params.get('action');
  if (action === 'open_confession') {
    const id = params.get('confessionId');
    const route =
      id && ID_RE.test(id) ? `/confessions?confessionId=${encodeURIComponent(id)}` : '/confessions';
    return { kind: 'open_confession', route };
  }
  if (action === 'open_chat') {
    const partnerId = params.get('partnerId') ?? '';
    return ID_RE.test(partnerId) ? { kind: 'open_chat', partnerId } : { kind: 'none' };
  }
  return { kind: 'none' };
}
