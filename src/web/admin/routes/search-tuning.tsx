import { useLoaderData } from 'react-router';
import type { LearnedList, SynonymsResponse } from '../../../shared/api/synonyms.ts';
import { adminCall } from '../api/admin-api.ts';
import { SearchPagesNav } from '../components/search-pages-nav.tsx';
import { LearnedTable } from '../features/search-tuning/learned-table.tsx';
import { SynonymsEditor } from '../features/search-tuning/synonyms-editor.tsx';
import { useSession } from '../lib/use-session.ts';
import { usePageTitle } from '../lib/use-page-title.ts';

/** Rows of what search learned shown at most: the strongest. */
const LEARNED_SHOWN = 100;

interface SearchTuningData {
  synonyms: SynonymsResponse;
  learned: LearnedList;
}

export const searchTuningLoader = async (): Promise<SearchTuningData> => {
  const [synonyms, learned] = await Promise.all([
    adminCall('getSynonyms'),
    adminCall('getSearchLearning', { query: { limit: LEARNED_SHOWN } }),
  ]);
  return { synonyms, learned };
};

/** How search finds articles beyond their own words: the team's synonyms, and what visitors' choices taught it. */
export function SearchTuningPage() {
  usePageTitle('Search tuning');
  const { synonyms, learned } = useLoaderData() as SearchTuningData;
  const { branding } = useSession();
  return (
    <div className="search-tuning-page">
      <SearchPagesNav />
      <h1 tabIndex={-1}>Search tuning</h1>
      <section aria-labelledby="synonyms-heading">
        <h2 id="synonyms-heading">Synonyms</h2>
        <p className="muted">
          Words visitors use that your articles put differently: a search for one word or phrase of a set also
          finds articles with the others. Put each set under the language of its words, so their other forms
          are found too (printer, printers).
        </p>
        <SynonymsEditor initial={synonyms} startWith={branding.lang} />
      </section>
      <section aria-labelledby="learned-heading" className="learned-section">
        <h2 id="learned-heading">What visitors taught search</h2>
        <p className="muted">
          When several visitors open the same article after searching the same words, it rises for those
          words: each visitor counts once a day, votes fade by half every two weeks, and an article rises at
          most ×2.5. Queries are shown as search counts them, each word cut to its stem and in alphabetical
          order, so close variants share a row.
        </p>
        <LearnedTable initial={learned.items} limit={LEARNED_SHOWN} />
      </section>
    </div>
  );
}
