import { useLayoutEffect, useRef, useState } from 'react';

/**
 * Moves focus to a form's first field marked invalid (`aria-invalid`), once the marks are drawn: the form takes
 * `form` as its ref, and `focusFirstInvalid()` is called wherever errors are set.
 */
export function useFocusFirstInvalid() {
  const form = useRef<HTMLFormElement>(null);
  const [round, setRound] = useState(0);
  // In the commit that drew the marks, not a frame later (Preact runs passive effects after paint).
  useLayoutEffect(() => {
    if (round > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [round]);
  return { form, focusFirstInvalid: () => setRound((value) => value + 1) };
}
