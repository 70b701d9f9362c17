import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { LANGUAGES, type Language } from '../../../shared/constants.ts';
import { loadTranslation, type LoadedTranslation } from '../features/editor/translation-kinds.ts';
import { positiveId } from '../lib/route-params.ts';

const languageOf = (text: string | undefined): Language | null =>
  (LANGUAGES as readonly string[]).includes(text ?? '') ? (text as Language) : null;

/** /articles/1/translations/ru and the like: the translation (or the blank for one), with its source. */
export function translationLoader(kind: LoadedTranslation['kind']) {
  return async ({ params }: LoaderFunctionArgs): Promise<LoadedTranslation> => {
    const id = positiveId(params.id);
    const lang = languageOf(params.lang);
    if (id === null || lang === null) throw data('not found', { status: 404 });
    return loadTranslation(kind, { id, lang });
  };
}

export const useLoadedTranslation = () => useLoaderData() as LoadedTranslation;
