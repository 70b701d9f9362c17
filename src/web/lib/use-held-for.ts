import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A value that holds for `ms` from each call of `hold`, then is null again; a new call replaces the value and starts
 * its time afresh. The timer starts in the call (a send's answer, a click), not in an effect a frame later, so a
 * duration is counted from what caused it.
 */
export function useHeldFor<T>(): [T | null, (value: T, ms: number) => void] {
  const [held, setHeld] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const hold = useCallback((value: T, ms: number) => {
    clearTimeout(timer.current);
    setHeld(value);
    timer.current = setTimeout(() => setHeld(null), ms);
  }, []);
  return [held, hold];
}
