import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web client's boundaries are held by eslint.config.js: these cases prove each rule catches what it is there for
 * and lets the legal imports through, so that a change to the config that silently drops one fails here.
 */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

/** The messages of no-restricted-imports for `code` as if it were the file at `filePath`. */
async function importBans(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const refused = (code: string, filePath: string, message: string) => async () => {
  const messages = await importBans(code, filePath);
  expect(messages.length, `${filePath}: ${code}`).toBeGreaterThan(0);
  expect(messages.join('\n')).toContain(message);
};

const allowed = (code: string, filePath: string) => async () => {
  expect(await importBans(code, filePath), `${filePath}: ${code}`).toEqual([]);
};

const ANOTHER_FEATURE = 'A feature does not import another feature';
const SHARED_PART = 'Shared parts import no feature';
const COMPOSER = 'nothing below imports them';

describe('the public site’s boundaries', () => {
  const feature = 'src/web/features/request/x.tsx';

  it(
    'refuse a feature importing another feature',
    refused("import { SearchBox } from '../search/search-box.tsx';", feature, ANOTHER_FEATURE),
  );
  it(
    'refuse it written with a leading ./',
    refused("import { SearchBox } from './../search/search-box.tsx';", feature, ANOTHER_FEATURE),
  );
  it(
    'refuse a feature importing a page',
    refused("import { rootLoader } from '../../routes/root-data.ts';", feature, COMPOSER),
  );
  it(
    'refuse a shared part importing a feature',
    refused(
      "import { SearchBox } from '../features/search/search-box.tsx';",
      'src/web/components/x.tsx',
      SHARED_PART,
    ),
  );
  it(
    'refuse a shared part importing the frame',
    refused("import { Header } from '../layout/header.tsx';", 'src/web/lib/x.ts', COMPOSER),
  );
  it(
    'still refuse what no browser code imports',
    refused("import { x } from '../../../server/app.ts';", feature, 'over HTTP only'),
  );
  it(
    "still refuse React's useId in a feature",
    refused("import { useId } from 'react';", feature, "React's and Preact's useId differ"),
  );

  it('let a feature import its own files and shared parts', async () => {
    await allowed("import { RequestSent } from './request-sent.tsx';", feature)();
    await allowed("import { useI18n } from '../../i18n/i18n.tsx';", feature)();
    await allowed("import { call } from '../../api/call.ts';", feature)();
    await allowed("import { debounce } from '../../lib/debounce.ts';", feature)();
  });
  it('let pages and the frame compose features', async () => {
    await allowed("import { SearchBox } from '../features/search/search-box.tsx';", 'src/web/layout/x.tsx')();
    await allowed("import { TrailNav } from '../features/knowledge/trail.tsx';", 'src/web/routes/x.tsx')();
  });
});

describe('the admin app’s boundaries', () => {
  const feature = 'src/web/admin/features/editor/x.tsx';

  it(
    'refuse an admin feature importing another',
    refused("import { ContentTree } from '../tree/content-tree.tsx';", feature, ANOTHER_FEATURE),
  );
  it(
    "refuse an admin feature importing a public site's feature",
    refused("import { SearchBox } from '../../../features/search/search-box.tsx';", feature, ANOTHER_FEATURE),
  );
  it(
    'refuse an admin shared part importing a feature',
    refused(
      "import { sessionLoader } from '../features/session/session.tsx';",
      'src/web/admin/lib/x.ts',
      SHARED_PART,
    ),
  );
  it(
    'refuse an admin shared part importing a page',
    refused("import { UsersPage } from '../routes/users.tsx';", 'src/web/admin/components/x.tsx', COMPOSER),
  );
  it(
    'refuse the public site importing the admin app',
    refused("import { adminCall } from '../admin/api/admin-api.ts';", 'src/web/portal/x.tsx', 'admin app'),
  );
  it(
    'still refuse what no browser code imports',
    refused("import { x } from '../../../../server/app.ts';", feature, 'over HTTP only'),
  );

  it('let an admin feature import its own files and shared parts', async () => {
    await allowed("import { HtmlField } from './html-field.tsx';", feature)();
    await allowed("import { useSession } from '../../lib/use-session.ts';", feature)();
    await allowed("import { Modal } from '../../components/modal.tsx';", feature)();
    await allowed("import { FontIcon } from '../../../components/font-icon.tsx';", feature)();
  });
  it('let the admin pages compose features', async () => {
    await allowed(
      "import { ContentTree } from '../features/tree/content-tree.tsx';",
      'src/web/admin/routes/x.tsx',
    )();
  });
});
