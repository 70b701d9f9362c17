import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useHeldFor } from '../lib/use-held-for.ts';

interface ToastMessage {
  text: string;
  /** A class beside `toast`, to tell one kind of message from another. */
  kind?: string;
}

type ShowToast = (message: ToastMessage, ms: number) => void;

const ToastContext = createContext<ShowToast | null>(null);

/**
 * The page's one toast, at the bottom of the window: a status region (polite) that is always there, so that screen
 * readers hear what comes into it, showing one message at a time. A new message replaces the one shown, and its time
 * starts afresh. Around the page it serves, inside the page's main landmark (the article page's).
 */
export function ToastRegion({ children }: { children: ReactNode }) {
  const [message, hold] = useHeldFor<ToastMessage>();
  return (
    <ToastContext.Provider value={hold}>
      {children}
      <div className="toast-region" role="status" aria-live="polite">
        {message && <div className={message.kind ? `toast ${message.kind}` : 'toast'}>{message.text}</div>}
      </div>
    </ToastContext.Provider>
  );
}

/**
 * Shows a text in the page's toast for `ms`, counted from the call. `kind` is a class the message carries beside
 * `toast`. Only inside a ToastRegion.
 */
export function useToast(ms: number, kind?: string): (text: string) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast is used outside a ToastRegion');
  return useCallback((text: string) => show({ text, kind }, ms), [show, ms, kind]);
}
