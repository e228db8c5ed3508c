import { useEffect, useState } from 'react';
import type { CollegeOption } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { fetchCollegeSuggestion } from './profile-api';

/** The college of the student's academic e-mail address, once the server has said (null: none). */
export function useCollegeSuggestion(): CollegeOption | null {
  const api = useApi();
  const [suggestion, setSuggestion] = useState<CollegeOption | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    void fetchCollegeSuggestion(api, controller.signal).then((college) => {
      if (!controller.signal.aborted) setSuggestion(college);
    });
    return () => controller.abort();
  }, [api]);
  return suggestion;
}
