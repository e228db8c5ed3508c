type Hook = () => void;

const hooks = new Set<Hook>();

/**
 * What must happen while the session still works, before a sign-out revokes it and closes its socket (the
 * call layer hangs up so the other side is told). Returns the unregister function.
 */
export function onSignOut(hook: Hook): () => void {
  hooks.add(hook);
  return () => {
    hooks.delete(hook);
  };
}

export function runSignOutHooks(): void {
  for (const hook of [...hooks]) {
    try {
      hook();
    } catch (error) {
      console.warn('A sign-out step failed', error);
    }
  }
}
