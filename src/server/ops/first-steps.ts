import type { AppContext } from '../context.ts';
import { adminCount } from '../accounts/users.repository.ts';
import { hasPublishedArticle } from '../content/content.repository.ts';

const MAKE_ADMIN = 'signpost user add --email E --name N --admin (it asks for the password)';

/**
 * What an operator has still to do before the help centre is of use, one sentence each, for the start-up log: an
 * install with nobody to sign in, or nothing for visitors to read, says what comes next.
 */
export async function firstSteps(ctx: AppContext, publicUrl: string): Promise<string[]> {
  const admin = `${publicUrl}/admin`;
  const [admins, published] = await Promise.all([adminCount(ctx.db), hasPublishedArticle(ctx.db)]);
  const steps: string[] = [];
  if (admins === 0) {
    steps.push(`there is no administrator yet: make one with ${MAKE_ADMIN}, then sign in at ${admin}`);
  }
  if (!published) {
    steps.push(
      `the help centre has no published article, so visitors see an empty page: sign in at ${admin} and ` +
        'write one (Content: New section, then New article), or import a Markdown content folder with ' +
        'signpost import DIR (signpost import DIR --replace makes the folder the whole content)',
    );
  }
  return steps;
}
