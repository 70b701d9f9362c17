import { useState } from 'react';
import { useLoaderData } from 'react-router';
import type { AdminTree } from '../../../shared/api/admin.ts';
import type { SearchReport } from '../../../shared/api/search.ts';
import { adminCall } from '../api/admin-api.ts';
import { SearchPagesNav } from '../components/search-pages-nav.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';
import { AvoidedSection, UnhelpfulSection } from '../features/search-report/article-sections.tsx';
import { CreateArticleDialog, placesOf } from '../features/search-report/create-article-dialog.tsx';
import { SearchesSections } from '../features/search-report/query-sections.tsx';

/** How many queries and articles each list shows. */
const REPORT_LIMIT = 50;
const REPORT_WEEKS = 12;

interface SearchReportData {
  report: SearchReport;
  tree: AdminTree;
}

export const searchReportLoader = async (): Promise<SearchReportData> => {
  const [report, tree] = await Promise.all([
    adminCall('getSearchReport', { query: { limit: REPORT_LIMIT, weeks: REPORT_WEEKS } }),
    adminCall('getAdminTree'),
  ]);
  return { report, tree };
};

/**
 * What visitors looked for and did not find, what they found and did not open, the articles readers found
 * unhelpful, and the requests articles suggested under the request forms made unnecessary: what to write or mend.
 */
export function SearchReportPage() {
  usePageTitle('Search report');
  const { report, tree } = useLoaderData() as SearchReportData;
  const [creating, setCreating] = useState<string | null>(null);
  const places = placesOf(tree);
  return (
    <div className="search-report-page">
      <SearchPagesNav />
      <h1 tabIndex={-1}>Search report</h1>
      <p className="muted">
        What visitors searched for in the help centre and what they did with it, to show which articles to
        write or improve. Queries are kept without who asked: email addresses and long numbers are hidden,
        accents and capitals removed.
      </p>

      <SearchesSections report={report} onCreate={setCreating} />
      <UnhelpfulSection report={report} />
      <AvoidedSection report={report} />
      {creating !== null && (
        <CreateArticleDialog query={creating} places={places} onClose={() => setCreating(null)} />
      )}
    </div>
  );
}
