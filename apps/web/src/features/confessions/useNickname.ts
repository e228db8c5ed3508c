import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../../lib/ApiContext';
import { fetchNickname } from './confessions-api';

/** 'unknown' while loading or when the server could not be asked: the server then decides. */
export type NicknameState = { kind: 'unknown' } | { kind: 'none' } | { kind: 'set'; nickname: string };

export function useNickname() {
  const api = useApi();
  const [state, setState] = useState<NicknameState>({ kind: 'unknown' });
  useEffect(() => {
    let live = true;
    fetchNickname(api).then(
      (nickname) => {
        if (live) setState(nickname ? { kind: 'set', nickname } : { kind: 'none' });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  const chosen = useCallback((nickname: string) => setState({ kind: 'set', nickname }), []);
  return { state, chosen };
}
