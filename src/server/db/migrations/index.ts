import type { Migration } from 'kysely/migration';
import type { Dialect } from '../schema-helpers.ts';
import * as initial from './0001-initial.ts';
import * as tickets from './0002-tickets.ts';
import * as searchQueries from './0003-search-queries.ts';
import * as revisions from './0004-revisions.ts';
import * as fileBlobs from './0005-file-blobs.ts';
import * as contentChanges from './0006-content-changes.ts';
import * as uploadTimes from './0007-upload-times.ts';
import * as roles from './0008-roles.ts';
import * as ticketStatus from './0009-ticket-status.ts';
import * as ticketMessages from './0010-ticket-messages.ts';
import * as ticketRequesters from './0011-ticket-requesters.ts';
import * as ticketSearch from './0012-ticket-search.ts';
import * as visibility from './0013-visibility.ts';
import * as mailReplies from './0014-mail-replies.ts';
import * as ticketCounts from './0015-ticket-counts.ts';
import * as ticketSearchKinds from './0016-ticket-search-kinds.ts';
import * as ticketSearchRecency from './0017-ticket-search-recency.ts';
import * as defaultTitles from './0018-default-titles.ts';
import * as articleFeedback from './0019-article-feedback.ts';
import * as articleNoindex from './0020-article-noindex.ts';
import * as searchVotes from './0021-search-votes.ts';
import * as requestsAvoided from './0022-requests-avoided.ts';
import * as articleEmbeddings from './0023-article-embeddings.ts';
import * as translations from './0024-translations.ts';
import * as accountMails from './0025-account-mails.ts';
import * as senderAccess from './0026-sender-access.ts';
import * as outboxKinds from './0027-outbox-kinds.ts';

/** Migrations in order; each module exports up(dialect). Names are permanent once released. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': { up: initial.up(dialect) },
    '0002-tickets': { up: tickets.up(dialect) },
    '0003-search-queries': { up: searchQueries.up(dialect) },
    '0004-revisions': { up: revisions.up(dialect) },
    '0005-file-blobs': { up: fileBlobs.up(dialect) },
    '0006-content-changes': { up: contentChanges.up(dialect) },
    '0007-upload-times': { up: uploadTimes.up(dialect) },
    '0008-roles': { up: roles.up(dialect) },
    '0009-ticket-status': { up: ticketStatus.up(dialect) },
    '0010-ticket-messages': { up: ticketMessages.up(dialect) },
    '0011-ticket-requesters': { up: ticketRequesters.up(dialect) },
    '0012-ticket-search': { up: ticketSearch.up(dialect) },
    '0013-visibility': { up: visibility.up(dialect) },
    '0014-mail-replies': { up: mailReplies.up(dialect) },
    '0015-ticket-counts': { up: ticketCounts.up(dialect) },
    '0016-ticket-search-kinds': { up: ticketSearchKinds.up(dialect) },
    '0017-ticket-search-recency': { up: ticketSearchRecency.up(dialect) },
    '0018-default-titles': { up: defaultTitles.up(dialect) },
    '0019-article-feedback': { up: articleFeedback.up(dialect) },
    '0020-article-noindex': { up: articleNoindex.up(dialect) },
    '0021-search-votes': { up: searchVotes.up(dialect) },
    '0022-requests-avoided': { up: requestsAvoided.up(dialect) },
    '0023-article-embeddings': { up: articleEmbeddings.up(dialect) },
    '0024-translations': { up: translations.up(dialect) },
    '0025-account-mails': { up: accountMails.up(dialect) },
    '0026-sender-access': { up: senderAccess.up(dialect) },
    '0027-outbox-kinds': { up: outboxKinds.up(dialect) },
  };
}
