import type { SynonymsResponse } from '../../../../shared/api/synonyms.ts';
import { LANGUAGES, type Language } from '../../../../shared/constants.ts';
import { FormError } from '../../components/field.tsx';
import { LeaveGuard } from '../../components/leave-guard.tsx';
import { LanguagePanel } from './language-panel.tsx';
import { LanguageTabs } from './language-tabs.tsx';
import { useSynonymsForm } from './use-synonyms-form.ts';

/**
 * The team's synonym sets, a tab per content language, all saved at once. Each language keeps its text while
 * another is shown, and a tab says when its language has changes not saved yet.
 */
export function SynonymsEditor({ initial, startWith }: { initial: SynonymsResponse; startWith: Language }) {
  const {
    saved,
    texts,
    setTexts,
    selected,
    setSelected,
    problems,
    focus,
    message,
    status,
    busy,
    written,
    changed,
    dirty,
    dirtyRef,
    handleSubmit,
  } = useSynonymsForm(initial, startWith);

  return (
    <form className="synonyms-form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <LeaveGuard dirty={dirty} dirtyRef={dirtyRef}>
        <p>The synonym sets have changes that are not saved. Leave, and they are lost.</p>
      </LeaveGuard>
      {saved.defaults && (
        <p className="banner banner-info">
          These are Signpost’s default sets, everyday help-centre words in each language. Edit or remove any:
          once you save, search uses your sets instead.
        </p>
      )}
      <FormError message={message} />
      <LanguageTabs
        selected={selected}
        setSelected={setSelected}
        written={written}
        changed={changed}
        problems={problems}
      />
      {LANGUAGES.map((lang) => (
        <LanguagePanel
          key={lang}
          lang={lang}
          selected={lang === selected}
          text={texts[lang]}
          problems={problems[lang] ?? []}
          focus={focus}
          onChange={(text) => setTexts((current) => ({ ...current, [lang]: text }))}
        />
      ))}
      <div className="editor-actions">
        <button type="submit" className="button" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save synonyms'}
        </button>
        <span role="status" className="editor-status">
          {status}
        </span>
      </div>
    </form>
  );
}
