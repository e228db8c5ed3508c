/** Navigation state that opens /profile straight in edit mode (the completion modal's Complete Profile). */
export const PROFILE_EDIT_STATE = { editProfile: true } as const;

export function wantsEditMode(state: unknown): boolean {
  return (
    typeof state === 'object' && state !== null && (state as { editProfile?: unknown }).editProfile === true
  );
}
