import { TranslationEditor } from '../features/editor/translation-editor.tsx';
import { LANGUAGE_NAMES } from '../lib/languages.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useLoadedTranslation } from './translation.tsx';

// Loaded on demand (routes.tsx), like the article page: the rich-text editor is most of the admin app's weight.

export function TranslationPage() {
  const loaded = useLoadedTranslation();
  const source = loaded.view.source.text.title ?? loaded.view.source.text.name ?? '';
  usePageTitle(`${source} (${LANGUAGE_NAMES[loaded.view.lang]})`);
  return <TranslationEditor key={`${loaded.kind}-${loaded.view.lang}-${source}`} initial={loaded} />;
}
