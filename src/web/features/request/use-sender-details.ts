import { useEffect, useState } from 'react';
import type { AuthUser } from '../../../shared/api/auth.ts';
import { readItem, storageKeys, writeItem } from '../../lib/storage.ts';

/** The request form's fields the visitor types in. */
export type RequestField = 'name' | 'email' | 'description';
export type RequestValues = Record<RequestField, string>;
/** Where name and email came from when they are fixed: the visitor's own account, or a link anyone may have sent. */
export type Prefill = 'account' | 'link' | null;

/**
 * "Not you?": the link's name and email belong to someone else. Forgets them, in storage and in the address (where
 * a reload would save them again), keeping the router's own history state.
 */
function forgetLinkedVisitor(): void {
  writeItem(storageKeys.megapolName, null);
  writeItem(storageKeys.megapolEmail, null);
  const url = new URL(window.location.href);
  if (!url.searchParams.has(storageKeys.megapolName) && !url.searchParams.has(storageKeys.megapolEmail))
    return;
  url.searchParams.delete(storageKeys.megapolName);
  url.searchParams.delete(storageKeys.megapolEmail);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * The request form's values and who sends it. Name and email come from the account, or from the link's
 * megapolName/megapolEmail; then they are fixed (`locked`), and `prefill` says where they came from.
 */
export function useSenderDetails(user: AuthUser | null) {
  const [values, setValues] = useState<RequestValues>({ name: '', email: '', description: '' });
  const [locked, setLocked] = useState({ name: false, email: false });
  const [prefill, setPrefill] = useState<Prefill>(null);

  useEffect(() => {
    const name = user?.name ?? readItem(storageKeys.megapolName);
    const email = user?.email ?? readItem(storageKeys.megapolEmail);
    setValues((current) => ({ ...current, name: name ?? current.name, email: email ?? current.email }));
    setLocked({ name: Boolean(name), email: Boolean(email) });
    setPrefill(user ? 'account' : name || email ? 'link' : null);
  }, [user]);

  const set = (field: RequestField, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  /** Forgets the link's sender: name and email empty and free again. */
  const forgetLinked = () => {
    forgetLinkedVisitor();
    setValues((current) => ({ ...current, name: '', email: '' }));
    setLocked({ name: false, email: false });
    setPrefill(null);
  };

  /** Once sent, the form is ready for another request: the message goes, and name and email unless fixed. */
  const clearSent = () =>
    setValues((current) => ({
      name: locked.name ? current.name : '',
      email: locked.email ? current.email : '',
      description: '',
    }));

  return { values, locked, prefill, set, forgetLinked, clearSent };
}
