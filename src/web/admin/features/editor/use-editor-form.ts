import { useMemo, useRef, useState, type DependencyList } from 'react';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { uploadFiles } from '../../api/admin-api.ts';
import type { FieldErrors } from '../../lib/errors.ts';
import { browserStorage } from './local-draft.ts';
import { useLocalDraftWriter } from './use-local-draft.tsx';

/** Where an editor keeps unsaved work in this browser (local-draft.ts, category-values.ts). */
export interface LocalDraftStore<V, D extends { values: V; saved_at: string }> {
  /** The kept draft worth offering when the editor opens, given the server's values. */
  offer: (storage: Storage | undefined, server: V) => D | null;
  write: (storage: Storage | undefined, values: V) => void;
  clear: (storage: Storage | undefined) => void;
}

/** A save's progress: under way until it ends. */
function useSaving() {
  const [saving, setSaving] = useState(false);
  /** Runs a save; `onError` tells what went wrong. */
  const runSave = async (save: () => Promise<void>, onError: (error: unknown) => void) => {
    setSaving(true);
    try {
      await save();
    } catch (error) {
      onError(error);
    } finally {
      setSaving(false);
    }
  };

  return { saving, runSave };
}

/** The local draft offered when the editor opens: restored into the form, or discarded. */
function useDraftOffer<V, D extends { values: V; saved_at: string }>({
  localDraft,
  storage,
  baseline,
  setValues,
  setStatus,
  onRestore,
}: {
  localDraft: LocalDraftStore<V, D>;
  storage: Storage | undefined;
  baseline: V;
  setValues: (values: V) => void;
  setStatus: (status: string) => void;
  onRestore: ((draft: D) => void) | undefined;
}) {
  const [offer, setOffer] = useState<D | null>(() => localDraft.offer(storage, baseline));
  const restoreDraft = () => {
    if (!offer) return;
    setValues(offer.values);
    onRestore?.(offer);
    setOffer(null);
    setStatus('Restored the unsaved changes.');
  };
  const discardDraft = () => {
    localDraft.clear(storage);
    setOffer(null);
    setStatus('Discarded the unsaved changes.');
  };

  return { offer, restore: restoreDraft, discard: discardDraft };
}

/**
 * What the article and category editors share: the values on screen against the saved ones (dirty tracking for
 * the badge and the unsaved-changes guard), the local draft written as the work changes and offered back when the
 * editor opens, the save's progress, field errors, message and status line, and uploads.
 */
export function useEditorForm<V, D extends { values: V; saved_at: string }>({
  initial,
  hasChanges,
  isSent,
  localDraft,
  draftDeps,
  initialStatus = '',
  onRestore,
}: {
  initial: () => V;
  hasChanges: (values: V, saved: V) => boolean;
  /** Whether the values on screen are still those a save sent, so the saved ones may replace them. */
  isSent: (current: V, sent: V) => boolean;
  localDraft: LocalDraftStore<V, D>;
  /** What else the local draft holds besides the values (the revision the work started from). */
  draftDeps: DependencyList;
  initialStatus?: string | (() => string);
  /** What else a restored draft brings back. */
  onRestore?: (draft: D) => void;
}) {
  const storage = useMemo(browserStorage, []);
  const [baseline, setBaseline] = useState<V>(initial);
  const [values, setValues] = useState<V>(baseline);
  const { saving, runSave } = useSaving();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState(initialStatus);
  const offered = useDraftOffer({
    localDraft,
    storage,
    baseline,
    setValues,
    setStatus,
    onRestore,
  });

  const dirty = hasChanges(values, baseline);
  // Read at navigation time: a save that has just finished must not be held up by a stale render.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const pending = useLocalDraftWriter(
    () => {
      if (dirtyRef.current) localDraft.write(storage, values);
      else localDraft.clear(storage);
    },
    [values, baseline, storage, ...draftDeps],
    offered.offer !== null,
  );

  const change = (patch: Partial<V>) => setValues((current) => ({ ...current, ...patch }));
  const upload = async (files: File[]): Promise<AdminFile[]> => (await uploadFiles(files)).items;

  /** The server's values become the starting point; work typed while the save was on its way stays on screen. */
  const adopt = (next: V, sent?: V) => {
    setBaseline(next);
    setValues((current) => (!sent || isSent(current, sent) ? next : current));
    // Until the next render says otherwise: a move away right after the save is not held up.
    if (!sent || isSent(values, sent)) dirtyRef.current = false;
  };

  /** The local draft goes, and the write waiting for the next pause with it (after a save or a delete). */
  const forgetDraft = () => {
    localDraft.clear(storage);
    pending.current = null;
  };

  return {
    values,
    setValues,
    baseline,
    change,
    dirty,
    dirtyRef,
    adopt,
    upload,
    saving,
    runSave,
    errors,
    setErrors,
    message,
    setMessage,
    status,
    setStatus,
    /** The local draft: the one offered when the editor opened (restore or discard it), and forgetting it. */
    draft: { ...offered, forget: forgetDraft },
    discardChanges: () => setValues(baseline),
  };
}

export type EditorForm<V> = Omit<
  ReturnType<typeof useEditorForm<V, { values: V; saved_at: string }>>,
  'draft'
>;
