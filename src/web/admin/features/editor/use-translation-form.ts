import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { fieldErrorsOf, messageOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import {
  translationOf,
  type LoadedTranslation,
  type Translation,
  type TranslationValues,
} from './translation-kinds.ts';

const same = (a: TranslationValues, b: TranslationValues) =>
  a.name === b.name &&
  a.html === b.html &&
  a.files.map((f) => f.id).join() === b.files.map((f) => f.id).join();

/** One call at a time: busy while it runs, its refusal shown by field and as a message. */
function useRun() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      await work();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setMessage(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, message, busy, run };
}

/**
 * The translation editor's state and actions: the values edited against the last saved ones, and saving,
 * publishing or unpublishing, and deleting the translation.
 */
export function useTranslationForm(initial: LoadedTranslation) {
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState(initial);
  const [saved, setSaved] = useState(() => translationOf(initial).values);
  const [values, setValues] = useState(saved);
  const [status, setStatus] = useState('');
  const { errors, setErrors, message, busy, run } = useRun();
  const dirty = !same(values, saved);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const translation: Translation = translationOf(loaded);
  const { view, rules } = translation;

  const adopt = (next: LoadedTranslation) => {
    setLoaded(next);
    const fresh = translationOf(next).values;
    setSaved(fresh);
    setValues(fresh);
  };

  const save = (publish?: boolean) =>
    run(async () => {
      if (!values.name.trim()) {
        setErrors({ [rules.nameField]: `Enter a ${rules.nameField}.` });
        return;
      }
      const next = await translation.save(values, publish ?? undefined);
      adopt(next);
      setStatus(
        `${publish ? 'Published' : 'Saved'} at ${formatTime(next.view.updated_at ?? new Date().toISOString())}.`,
      );
    });

  const togglePublished = () =>
    run(async () => {
      const next = await translation.publish(!view.published);
      setLoaded(next);
      setStatus(next.view.published ? 'Published: visitors reading this language see it.' : 'Unpublished.');
    });

  const remove = () =>
    run(async () => {
      if (!window.confirm(`Delete the ${LANGUAGE_NAMES[view.lang]} translation of this ${rules.what}?`))
        return;
      await translation.remove();
      dirtyRef.current = false;
      navigate(rules.sourcePath(translation.id));
    });

  return {
    translation,
    values,
    setValues,
    errors,
    message,
    status,
    busy,
    dirty,
    dirtyRef,
    save,
    togglePublished,
    remove,
  };
}

export type TranslationForm = ReturnType<typeof useTranslationForm>;
