import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router';
import type { TranslationStatus, TranslationStatusItem } from '../../../shared/api/admin-translations.ts';
import { LANGUAGES, type Language } from '../../../shared/constants.ts';
import { adminCall } from '../api/admin-api.ts';
import { translationPath } from '../lib/translation-path.ts';
import { formatTime } from '../lib/format-time.ts';
import { LANGUAGE_NAMES } from '../lib/languages.ts';
import { usePageTitle } from '../lib/use-page-title.ts';

export async function translationsLoader({ request }: LoaderFunctionArgs): Promise<TranslationStatus> {
  const lang = new URL(request.url).searchParams.get('lang');
  const wanted = (LANGUAGES as readonly string[]).includes(lang ?? '') ? (lang as Language) : undefined;
  return adminCall('getTranslationStatus', { query: wanted ? { lang: wanted } : {} });
}

const KIND_NAMES = { section: 'Section', category: 'Category', article: 'Article' } as const;

function ItemTable({
  items,
  lang,
  action,
  caption,
}: {
  items: TranslationStatusItem[];
  lang: Language;
  action: string;
  caption: string;
}) {
  if (items.length === 0) return <p className="muted">Nothing here.</p>;
  return (
    <table className="data-table report-table translations-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Kind</th>
          <th scope="col">
            <span className="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={`${item.kind}-${item.id}`}>
            <td>
              <span lang={item.source_lang}>{item.title}</span>
              {!item.item_published && <span className="badge badge-draft">Draft</span>}
              {item.updated_at && (
                <span className="muted translations-when"> · translated {formatTime(item.updated_at)}</span>
              )}
            </td>
            <td>{KIND_NAMES[item.kind]}</td>
            <td className="number">
              <Link className="tool" to={translationPath(item.kind, item.id, lang)}>
                {action}
                <span className="visually-hidden">: {item.title}</span>
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Per language, what is left to translate: counts for every language, and the items for the one chosen. */
export function TranslationsPage() {
  usePageTitle('Translations');
  const status = useLoaderData() as TranslationStatus;
  const navigate = useNavigate();
  const chosen = status.counts.find((c) => c.lang === status.lang);
  // The server lists a limited number of items per kind; the counts are whole.
  const cut = (n: number, shown: number) => (n > shown ? ` (the first ${shown})` : '');
  return (
    <div className="translations-page">
      <h1 tabIndex={-1}>Translations</h1>
      <p className="muted">
        {LANGUAGE_NAMES[status.site]} is the help centre’s language: every translation is made from it. An
        item missing in a language is shown there in {LANGUAGE_NAMES[status.site]}, marked.
      </p>
      <div className="language-tabs" role="tablist" aria-label="Language">
        {status.counts.map((count) => {
          const todo = count.missing + count.outdated;
          return (
            <button
              key={count.lang}
              type="button"
              role="tab"
              aria-selected={count.lang === status.lang}
              onClick={() => navigate(`/translations?lang=${count.lang}`)}
            >
              {LANGUAGE_NAMES[count.lang]}
              {count.lang === status.site && <span className="muted"> (source)</span>}
              <span className={todo ? 'badge badge-problem' : 'badge badge-published'}>
                {todo ? `${todo} to do` : 'Done'}
              </span>
            </button>
          );
        })}
      </div>
      {chosen && (
        <>
          <dl className="translation-counts">
            <div>
              <dt>Missing</dt>
              <dd>{chosen.missing}</dd>
            </div>
            <div>
              <dt>Outdated</dt>
              <dd>{chosen.outdated}</dd>
            </div>
            <div>
              <dt>Not published</dt>
              <dd>{chosen.unpublished}</dd>
            </div>
            <div>
              <dt>Up to date</dt>
              <dd>{chosen.done}</dd>
            </div>
          </dl>
          <section aria-labelledby="outdated-heading">
            <h2 id="outdated-heading">
              Outdated in {LANGUAGE_NAMES[status.lang]}
              {cut(chosen.outdated, status.outdated.length)}
            </h2>
            <ItemTable
              items={status.outdated}
              lang={status.lang}
              action="Update"
              caption={`Outdated in ${LANGUAGE_NAMES[status.lang]}`}
            />
          </section>
          <section aria-labelledby="missing-heading">
            <h2 id="missing-heading">
              Missing in {LANGUAGE_NAMES[status.lang]}
              {cut(chosen.missing, status.missing.length)}
            </h2>
            {status.lang === status.site && <p className="muted">Items written only in other languages.</p>}
            <ItemTable
              items={status.missing}
              lang={status.lang}
              action="Translate"
              caption={`Missing in ${LANGUAGE_NAMES[status.lang]}`}
            />
          </section>
        </>
      )}
    </div>
  );
}
