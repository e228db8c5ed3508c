import type { ChangeAppliers } from '../../feature-contract';

/** The server logs every call (the clients never write the log); a log arriving again replaces itself. */
export const callChanges = {
  call_logged: async ({ db }, change) => {
    await db.callLogs.put(change.log);
  },
} satisfies Partial<ChangeAppliers>;
