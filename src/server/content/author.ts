import type { Session } from '../http/route.ts';
import type { RevisionAuthor } from './article-revisions.repository.ts';

/** The revision author a session's edits are kept under. */
export const authorOf = (session: Session): RevisionAuthor => ({
  id: session.user.id,
  name: session.user.name,
});
