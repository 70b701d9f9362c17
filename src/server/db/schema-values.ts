/**
 * Values the schema was built with that code outside db/ must agree with. Each was fixed by the migration that
 * named it, which reads it from here: changing one would change what that migration did to every database already
 * migrated, so none changes. A new value comes with a new migration and a new name.
 */

/** 0012: where requests' own texts sit among the search texts' numbers: below every message's, in id order. */
export const OWN_TEXT_OFFSET = 2 ** 40;

/** 0017: the block of ids each search text's time word names (`~o12`, `~m40`) on PostgreSQL. */
export const RECENCY_BLOCK = 4096;

/** 0026: how long replies to mail sent before it, signed with a request's one token, still join their thread. */
export const LEGACY_REPLY_TOKEN_DAYS = 90;
/** 0026: the setting that holds when that ends, in ms: written once, by the migration that started it. */
export const LEGACY_REPLY_TOKENS_UNTIL = 'mail_reply_legacy_until';
