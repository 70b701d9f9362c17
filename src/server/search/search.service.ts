import type { Suggestion } from '../../shared/api/search.ts';
import type { Language } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import { chunks } from '../lib/chunks.ts';
import { Doorkeeper } from '../http/doorkeeper.ts';
import { listAllCategories, listAllSections } from '../content/content.repository.ts';
import { restrictionsOf, type Audience, type Restrictions } from '../content/visibility.ts';
import { readSetting } from '../settings/settings.repository.ts';
import { dayOf } from '../privacy/daily-key.ts';
import { learningKey, loadLearned, loadLearnedKey, type Learned } from './learning.ts';
import { changedScopes, learnedChanges } from '../revisions/revision.repository.ts';
import { SearchIndex, yieldToEventLoop, type SearchDocument } from './search-index.ts';
import { compileSynonyms, NO_SYNONYMS, readSynonyms, type SynonymTable } from './synonyms.ts';
import {
  indexedArticleChanges,
  indexedArticlesAfter,
  indexedArticlesWithIds,
  indexedTranslations,
  type IndexedArticleRow,
} from './search.repository.ts';
import { LANGUAGES } from '../../shared/constants.ts';
import { treeLanguage, type TreeLanguage } from '../content/translations.ts';
import { chooseVersion, isLanguage, siteLanguage } from '../languages/index.ts';
import {
  articleTranslationStamps,
  listPublishedCategoryTranslations,
  listPublishedSectionTranslations,
  treeTranslationStamp,
} from '../content/translations.repository.ts';
import type { CategoryRow, SectionRow } from '../db/tables.ts';
import { htmlToText } from './text.ts';
import { isStopword, words } from './analysis.ts';
import { createSemanticIndex, fuse, SEMANTIC_DEPTH, type Embedder } from './embeddings.ts';
import { indexFingerprint, readSnapshot, writeSnapshot } from './search-snapshot.ts';

/** Articles read per query while loading, with the event loop free in between. */
const LOAD_PAGE = 500;

/** A translation's document id: below zero, where no article's id is, and one per article and language. */
export const translationKey = (articleId: number, lang: Language) =>
  -(articleId * 8 + LANGUAGES.indexOf(lang) + 1);

/**
 * Published versions of the articles visitors may read, as the index reads them, each in its own language with its
 * category's and section's names in that language: all of them, or those of the articles with the given ids. Read a
 * page at a time, so a large help centre does not hold the event loop while it loads.
 */
export async function loadSearchDocuments(db: Executor, ids?: number[]): Promise<SearchDocument[]> {
  const [lang, tree, sectionTranslations, categoryTranslations] = await Promise.all([
    siteLanguage(db),
    loadTree(db),
    listPublishedSectionTranslations(db),
    listPublishedCategoryTranslations(db),
  ]);
  const { restrictions } = tree;
  const sections = new Map(tree.sections.map((row) => [row.id, row]));
  const categories = new Map(tree.categories.map((row) => [row.id, row]));
  const treeIn = new Map<Language, TreeLanguage>();
  const namesIn = (reader: Language) => {
    let names = treeIn.get(reader);
    if (!names) {
      names = treeLanguage({ lang: reader, site: lang }, sectionTranslations, categoryTranslations);
      treeIn.set(reader, names);
    }
    return names;
  };
  const documents: SearchDocument[] = [];
  const readPage = async (page: Promise<IndexedArticleRow[]>) => {
    const rows = await page;
    const own = (row: IndexedArticleRow) => (isLanguage(row.lang) ? row.lang : lang);
    for (const row of rows) {
      if (row.published !== 1) continue;
      documents.push({
        id: row.id,
        title: row.title,
        text: htmlToText(row.body_html),
        category: row.category ?? '',
        section: row.section,
        lang: own(row),
        category_id: row.category_id,
        section_id: row.section_id,
        restricted: restrictions.article(row),
      });
    }
    const byId = new Map(rows.map((row) => [row.id, row]));
    const translations = rows.length ? await indexedTranslations(db, [...byId.keys()]) : [];
    for (const translation of translations) {
      const row = byId.get(translation.article_id);
      if (!row || !isLanguage(translation.lang) || translation.lang === own(row)) continue;
      const names = namesIn(translation.lang);
      const section = sections.get(row.section_id);
      const category = row.category_id === null ? undefined : categories.get(row.category_id);
      documents.push({
        id: translationKey(row.id, translation.lang),
        article_id: row.id,
        title: translation.title,
        text: htmlToText(translation.body_html),
        category: category ? names.category(category).name : '',
        section: section ? names.section(section).name : row.section,
        lang: translation.lang,
        category_id: row.category_id,
        section_id: row.section_id,
        restricted: restrictions.article(row),
      });
    }
    await yieldToEventLoop();
    return rows;
  };
  if (ids) {
    for (const page of chunks(ids, LOAD_PAGE)) await readPage(indexedArticlesWithIds(db, page));
    return documents;
  }
  for (let after = 0; ;) {
    const rows = await readPage(indexedArticlesAfter(db, after, LOAD_PAGE));
    if (rows.length < LOAD_PAGE) return documents;
    after = rows[rows.length - 1]?.id ?? after;
  }
}

async function loadTree(
  db: Executor,
): Promise<{ sections: SectionRow[]; categories: CategoryRow[]; restrictions: Restrictions }> {
  const [sections, categories] = await Promise.all([listAllSections(db), listAllCategories(db)]);
  return { sections, categories, restrictions: restrictionsOf(sections, categories) };
}

async function loadRestrictions(db: Executor): Promise<Restrictions> {
  return (await loadTree(db)).restrictions;
}

/** What a reader in one language searches: the versions they are shown, and what may be found in their place. */
interface ReaderView {
  /** Each article's document the reader is shown (chooseVersion). */
  shown: Map<number, number>;
  /** Those, and the versions in the reader's language and the site's: looked in first, then the fallback. */
  searched: Set<number>;
}

/**
 * For each language, what its readers search (ReaderView), or null while no article has more than one version
 * (then every document is searched and shown as it is).
 */
function readerViews(index: SearchIndex, site: Language): Map<Language, ReaderView> | null {
  const versions = index.articleVersions();
  if (![...versions.values()].some((ids) => ids.size > 1)) return null;
  const views = new Map(
    LANGUAGES.map((lang): [Language, ReaderView] => [lang, { shown: new Map(), searched: new Set() }]),
  );
  for (const [article, ids] of versions) {
    // The article's own version first (its id is the article's), then translations in the order of LANGUAGES.
    const docs = [...ids]
      .map((id) => index.document(id))
      .filter((doc) => doc !== undefined)
      .sort((a, b) =>
        a.id === article ? -1 : b.id === article ? 1 : LANGUAGES.indexOf(a.lang) - LANGUAGES.indexOf(b.lang),
      );
    for (const [lang, view] of views) {
      const chosen = chooseVersion(docs, { lang, site });
      if (!chosen) continue;
      view.shown.set(article, chosen.id);
      for (const doc of docs)
        if (doc === chosen || doc.lang === lang || doc.lang === site) view.searched.add(doc.id);
    }
  }
  return views;
}

/**
 * What an indexed article depends on: its own row, its category's and section's names, the branding's language, and
 * whether it is restricted (a change of any category above it can change that). A changed version means the
 * article is indexed again.
 */
async function loadVersions(
  db: Executor,
): Promise<{ versions: Map<number, string>; restricted: Set<number> }> {
  const [lang, rows, restrictions, translated, tree] = await Promise.all([
    siteLanguage(db),
    indexedArticleChanges(db),
    loadRestrictions(db),
    articleTranslationStamps(db),
    treeTranslationStamp(db),
  ]);
  const restricted = new Set(rows.filter((row) => restrictions.article(row)).map((row) => row.id));
  // Its translations, and (for their names) those of every section and category, are part of an article's version.
  return {
    versions: new Map(
      rows.map((row) => [
        row.id,
        `${row.updated_at}:${row.published}:${row.c ?? ''}:${row.s}:${lang}:${restricted.has(row.id) ? 1 : 0}` +
          `:${translated.get(row.id) ?? ''}:${tree}`,
      ]),
    ),
    restricted,
  };
}

/** Past this share of changed articles, building anew is cheaper than updating in place. */
const REBUILD_SHARE = 0.3;

/**
 * Up to this many articles a rebuild takes well under a second and searches wait for it (an edit is found by the next
 * search); past it, they answer from the current index while the new one is built.
 */
const BACKGROUND_REBUILD_FROM = 2_000;

const ANSWER_CACHE_SIZE = 10_000;
const SEMANTIC_RETRY_MS = 30_000;
/** How long a search waits for synonyms and votes being read again before answering with those there are. */
const EXTRAS_WAIT_MS = 50;
/** Past this many query keys changed since the last read, all the votes are read again rather than key by key. */
const KEYS_READ_APART = 100;

/** Least time between two snapshots written after changes (the first after a build is written at once). */
const SNAPSHOT_EVERY_MS = 5 * 60_000;

/** Where the service says what it did with its snapshot (the server's log). */
export interface SearchLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}
const SILENT: SearchLog = { info: () => undefined, warn: () => undefined };

export interface SearchServiceOptions {
  /** Index size from which large changes are rebuilt in the background (tests lower it). */
  backgroundRebuildFrom?: number;
  /**
   * What the index must be brought up to before a search: by default the content's revision, read from the database
   * every time. A server passes its revision watch, read at most every REVISION_CHECK_MS and at once after its own
   * writes, which also keeps search answering from the index while the database is away.
   */
  revision?: () => Promise<unknown>;
  /**
   * A file for a snapshot of the index (search-snapshot.ts): read instead of a first build, and written after one
   * and after changes, at most every `everyMs`. Off when absent.
   */
  snapshot?: { file: string; everyMs?: number };
  /** Semantic matching beside the words (EMBEDDINGS_URL): off when absent. */
  embeddings?: {
    embedder: Embedder;
    /** How much the meaning's ranking counts against the words'. */
    weight: number;
    minSimilarity: number;
    timeoutMs: number;
  };
}

/** The snapshot read at start: the index it held, and what it was made from. */
type LoadedSnapshot = NonNullable<Awaited<ReturnType<typeof loadSnapshot>>>;

/** Everything one search service holds; its steps below take it explicitly. */
interface SearchState {
  db: Executor;
  options: SearchServiceOptions;
  backgroundFrom: number;
  readRevision: () => Promise<unknown>;
  index: SearchIndex | null;
  versions: Map<number, string>;
  revision: unknown;
  /** Moves with every new index, change of who may read what, and new extras: answers kept before are not kept. */
  generation: number;
  updating: Promise<SearchIndex> | null;
  rebuilding: Promise<void> | null;
  semantic: ReturnType<typeof createSemanticIndex> | null;
  semanticRetryAt: number;
  /** The revision whose restrictions the index holds. */
  restrictedAt: unknown;
  log: SearchLog;
  snapshotTried: boolean;
  snapshotWriting: Promise<void> | null;
  /** The index, and its change count, that the snapshot on disk holds. */
  snapshotOf: { index: SearchIndex | null; changes: number };
  snapshotAt: number;
  /**
   * What queries take besides the index: the team's synonyms and what visitors taught search. Read again when the
   * revision moves (a change to either moves it, in the `search` scope) or the day turns (votes lose weight daily).
   * The votes only as far as they may have changed (learnedToRead).
   */
  synonyms: SynonymTable;
  learned: Learned;
  siteLang: Language;
  extrasAt: string | null;
  loadingExtras: Promise<void> | null;
  /** The content's revision counter read before the votes were (none newer is missed), and the day they were weighed. */
  learnedAt: { counter: number; day: string } | null;
  /**
   * Visitors repeat each other (an incident sends many to the same words) and retype the same prefixes: answers
   * are kept per index from a query's second asking, so a query asked again costs a map lookup. A new index starts
   * with an empty cache.
   */
  answers: Map<string, Suggestion[]>;
  answersFor: number;
  askedBefore: Doorkeeper;
  /** What each language's readers search, worked out again with every new generation. */
  views: Map<Language, ReaderView> | null;
}

function initialState(db: Executor, options: SearchServiceOptions): SearchState {
  return {
    db,
    options,
    backgroundFrom: options.backgroundRebuildFrom ?? BACKGROUND_REBUILD_FROM,
    readRevision: options.revision ?? (() => readSetting<number>(db, 'content_revision')),
    index: null,
    versions: new Map(),
    revision: undefined,
    generation: 0,
    updating: null,
    rebuilding: null,
    semantic: options.embeddings
      ? createSemanticIndex(db, options.embeddings.embedder, options.embeddings.timeoutMs)
      : null,
    semanticRetryAt: 0,
    restrictedAt: undefined,
    log: SILENT,
    snapshotTried: false,
    snapshotWriting: null,
    snapshotOf: { index: null, changes: 0 },
    snapshotAt: 0,
    synonyms: NO_SYNONYMS,
    learned: new Map(),
    siteLang: 'en',
    extrasAt: null,
    loadingExtras: null,
    learnedAt: null,
    answers: new Map(),
    answersFor: -1,
    askedBefore: new Doorkeeper(),
    views: null,
  };
}

/** Documents loaded for the index are embedded too, in the background (semantic matching only). */
function loaded(s: SearchState, documents: SearchDocument[]) {
  // By meaning, articles are matched in their own version (the embeddings are kept per article).
  void s.semantic?.update(documents.filter((doc) => doc.article_id === undefined));
  return documents;
}

/**
 * The index kept in the snapshot file, with the versions it was made from, or null (no file, or one not to be
 * trusted: said in the log, and the index is built anew).
 */
async function loadSnapshot(s: SearchState) {
  if (!s.options.snapshot) return null;
  const started = performance.now();
  const { file } = s.options.snapshot;
  try {
    const found = await readSnapshot(file, indexFingerprint());
    if (!found) return null;
    if (!found.usable) {
      s.log.warn({ file, reason: found.reason }, 'search snapshot not used: building the index anew');
      return null;
    }
    const restored = await SearchIndex.restore(found.pieces);
    const { header, bytes } = found;
    return { index: restored, header, bytes, ms: performance.now() - started };
  } catch (error) {
    s.log.warn({ file, err: error }, 'search snapshot not used: building the index anew');
    return null;
  }
}

/**
 * Writes the index to the snapshot file in the background, when it holds something the file does not and the last
 * write is SNAPSHOT_EVERY_MS old; never while the index is being updated, and the file is dropped if the index
 * changes while it is written.
 */
function saveSnapshot(s: SearchState) {
  const target = s.index;
  if (!s.options.snapshot || !target || s.snapshotWriting || s.updating || s.rebuilding) return;
  const changes = target.changeCount;
  if (s.snapshotOf.index === target && s.snapshotOf.changes === changes) return;
  if (Date.now() - s.snapshotAt < (s.options.snapshot.everyMs ?? SNAPSHOT_EVERY_MS)) return;
  s.snapshotAt = Date.now();
  const { file } = s.options.snapshot;
  const header = {
    fingerprint: indexFingerprint(),
    revision: s.revision,
    versions: s.versions,
    documents: target.size,
    writtenAt: Date.now(),
  };
  const started = performance.now();
  s.snapshotWriting = writeSnapshot(file, header, target.pieces(), () => target.changeCount === changes)
    .then((bytes) => {
      const ms = Math.round(performance.now() - started);
      if (bytes === null)
        return s.log.info({ file, ms }, 'search snapshot dropped: the index changed meanwhile');
      s.snapshotOf = { index: target, changes };
      s.log.info({ file, bytes, ms, documents: target.size }, 'search snapshot written');
    })
    .catch((error: unknown) => s.log.warn({ file, err: error }, 'search snapshot not written'))
    .finally(() => {
      s.snapshotWriting = null;
    });
}

/**
 * Brings the index to the content's revision: a first build, or an update of only the articles whose version
 * changed (and removal of those gone), so an edit is searchable in milliseconds however large the help centre.
 * A change too large for that (a first import, most articles re-written) builds a new index in the background
 * while searches go on answering from the one there is, which is swapped in when complete.
 */
function update(s: SearchState, seen: unknown): Promise<SearchIndex> {
  // During a background rebuild, a revision already looked at has nothing more to apply.
  if (s.rebuilding && s.index && s.restrictedAt === seen) return Promise.resolve(s.index);
  s.updating ??= bringUpToDate(s, seen).finally(() => {
    s.updating = null;
  });
  return s.updating;
}

async function bringUpToDate(s: SearchState, seen: unknown): Promise<SearchIndex> {
  // A first index comes from the snapshot when there is one, then goes through the same diff as any update.
  const snapshot = !s.index && !s.snapshotTried ? await loadSnapshot(s) : null;
  s.snapshotTried = true;
  const { versions: next, restricted } = await loadVersions(s.db);
  const existing = s.index ?? snapshot?.index ?? null;
  const known = s.index ? s.versions : (snapshot?.header.versions ?? s.versions);
  // Who may read each article is applied at once, even to an index a background rebuild is about to replace:
  // an article just restricted must not be found by anyone else meanwhile (nor kept in an answer).
  if (existing?.restrict(restricted)) s.generation++;
  s.restrictedAt = seen;
  if (s.rebuilding && s.index) return s.index;
  const changed = [...next].filter(([id, version]) => known.get(id) !== version).map(([id]) => id);
  const removed = [...known.keys()].filter((id) => !next.has(id));
  const install = (built: SearchIndex) => installIndex(s, built, next, seen);
  const rebuild = !existing || changed.length + removed.length > next.size * REBUILD_SHARE;
  // A snapshot far behind the database is not searched meanwhile: it is built anew, as without one.
  if (!existing || (rebuild && (next.size < s.backgroundFrom || snapshot))) {
    if (snapshot)
      s.log.info({ changed: changed.length, removed: removed.length }, 'search snapshot too far behind');
    return install(await SearchIndex.build(loaded(s, await loadSearchDocuments(s.db))));
  }
  if (rebuild) {
    s.rebuilding = loadSearchDocuments(s.db)
      .then((documents) => SearchIndex.build(loaded(s, documents)))
      .then(install, () => undefined)
      .then(() => {
        s.rebuilding = null;
      });
    return existing;
  }
  await applyChanges(s, existing, changed, removed);
  if (snapshot) adoptSnapshot(s, existing, snapshot, { changed: changed.length, removed: removed.length });
  return install(existing);
}

/** The index searches answer from from now on, made from `next` at the revision `seen`. */
function installIndex(s: SearchState, built: SearchIndex, next: Map<number, string>, seen: unknown) {
  s.index = built;
  s.versions = next;
  s.revision = seen;
  s.generation++;
  return built;
}

/** The changed articles indexed again in place, and those gone removed. */
async function applyChanges(s: SearchState, existing: SearchIndex, changed: number[], removed: number[]) {
  const documents = loaded(s, await loadSearchDocuments(s.db, changed));
  await existing.upsert(documents);
  // A changed article may have lost a version (a translation unpublished): only what was loaded stays.
  existing.removeArticles(changed, new Set(documents.map((doc) => doc.id)));
  existing.removeArticles(removed);
  s.semantic?.remove(removed);
}

/** An index restored from the snapshot and brought up to date becomes the one the file holds. */
function adoptSnapshot(
  s: SearchState,
  existing: SearchIndex,
  snapshot: LoadedSnapshot,
  counts: { changed: number; removed: number },
) {
  // Meaning is matched from the embeddings kept in the database, read for every article as after a build.
  loaded(s, [...existing.documents()]);
  // What the file holds is the index as restored (no changes counted yet); it is written again only after
  // SNAPSHOT_EVERY_MS, not at every start.
  s.snapshotOf = { index: existing, changes: 0 };
  s.snapshotAt = Date.now();
  s.log.info(
    {
      documents: existing.size,
      bytes: snapshot.bytes,
      loadMs: Math.round(snapshot.ms),
      changed: counts.changed,
      removed: counts.removed,
    },
    'search index loaded from its snapshot',
  );
}

/**
 * The index brought up to the content's revision, unless a large change is being rebuilt in the background:
 * `fresh` says whether it is up to date, so answers from an index still catching up are not kept anywhere.
 */
async function current(s: SearchState) {
  const seen = await s.readRevision();
  // What queries take besides the index first: a large change rebuilt in the background must not be swapped in
  // while these are read, between the update that started it and the search it answers.
  const extrasFresh = await refreshExtras(s, seen);
  if (!s.index || seen !== s.revision) await update(s, seen);
  return {
    index: s.index as SearchIndex,
    generation: s.generation,
    fresh: seen === s.revision && extrasFresh,
  };
}

/**
 * Which of what was learned to read again: all of it the first time, when the day has turned (every vote weighs
 * less), or when the change log says so or cannot say; else only the query keys told about (a vote reaching
 * TELL_AT, a reset of one query), or none, as after an edit of the content, however many. An article deleted takes
 * its votes with it, but its id is never given again, so what was learned for it matches nothing meanwhile.
 */
async function learnedToRead(s: SearchState, counter: number, day: string): Promise<'all' | Set<string>> {
  if (!s.learnedAt || s.learnedAt.day !== day) return 'all';
  const keys = learnedChanges(await changedScopes(s.db, s.learnedAt.counter, counter));
  return keys !== 'all' && keys.size > KEYS_READ_APART ? 'all' : keys;
}

/**
 * Reads them for `at` and puts them in place, all at once when all are read; answers kept under the old ones are
 * no longer kept.
 */
function loadExtras(s: SearchState, at: string) {
  s.loadingExtras ??= readExtras(s, at)
    // Kept as they are; read again by the next search.
    .catch(() => undefined)
    .finally(() => {
      s.loadingExtras = null;
    });
  return s.loadingExtras;
}

async function readExtras(s: SearchState, at: string) {
  const { db } = s;
  const now = Date.now();
  const day = dayOf(now);
  const counter = Number(await readSetting<number>(db, 'content_revision')) || 0;
  const [{ sets }, lang, toRead] = await Promise.all([
    readSynonyms(db),
    siteLanguage(db),
    learnedToRead(s, counter, day),
  ]);
  let nextLearned = s.learned;
  if (toRead === 'all') nextLearned = await loadLearned(db, now);
  else if (toRead.size) {
    nextLearned = new Map(s.learned);
    for (const key of toRead) {
      const factors = await loadLearnedKey(db, key, now);
      if (factors) nextLearned.set(key, factors);
      else nextLearned.delete(key);
    }
  }
  s.synonyms = compileSynonyms(sets);
  s.learned = nextLearned;
  s.learnedAt = { counter, day };
  s.siteLang = lang;
  s.extrasAt = at;
  s.generation++;
}

/**
 * Whether the extras are those of the revision `seen` (and of today). The first read is waited for; later ones
 * are waited for up to EXTRAS_WAIT_MS (synonyms and one query's votes read in a few milliseconds, so an edit shows
 * to the next search), and past that searches answer with the ones there are, not to be kept, while all the votes
 * are read in the background, a page at a time (learning.ts weighAll). A read under way may be one for an
 * earlier revision: when it ends within the wait, one for `seen` follows it, in what is left of the wait.
 */
async function refreshExtras(s: SearchState, seen: unknown): Promise<boolean> {
  const at = `${String(seen)}@${dayOf(Date.now())}`;
  const waitUntil = performance.now() + EXTRAS_WAIT_MS;
  for (let reads = 0; s.extrasAt !== at && reads < 2; reads++) {
    const loading = loadExtras(s, at);
    if (s.extrasAt === null) {
      await loading;
      continue;
    }
    const left = waitUntil - performance.now();
    const ended = await Promise.race([
      loading.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), Math.max(0, left)).unref()),
    ]);
    if (!ended) break;
  }
  return s.extrasAt === at;
}

/** The best articles for `text`, in the version a reader in `lang` (the site's when absent) is shown. */
async function suggest(
  s: SearchState,
  text: string,
  limit: number,
  audience: Audience,
  lang: Language | undefined,
  mode: 'query' | 'related',
): Promise<{ items: Suggestion[]; fresh: boolean }> {
  const { index: searchIndex, generation: searched, fresh } = await current(s);
  if (s.answersFor !== s.generation) {
    s.answers = new Map();
    s.answersFor = s.generation;
    s.views = readerViews(searchIndex, s.siteLang);
  }
  // An index replaced while this search waited answers, but its answer is not kept for the new one.
  const keep = searched === s.generation;
  const reader = lang ?? s.siteLang;
  const key = `${mode}\u0000${audience}\u0000${limit}\u0000${reader}\u0000${text}`;
  const known = keep ? s.answers.get(key) : undefined;
  if (known) return { items: known, fresh };
  const related = mode === 'related';
  const found = await searchWithMeaning(s, searchIndex, { text, limit, audience, reader, related });
  const hits = found.map(({ id, title, lang, category_id, section_id, snippet }) => ({
    id,
    title,
    lang,
    category_id,
    section_id,
    snippet,
  }));
  // A related list is one per article; what visitors type is kept from its second asking (doorkeeper.ts).
  if (keep && (related || s.askedBefore.metBefore(key))) {
    if (s.answers.size >= ANSWER_CACHE_SIZE) s.answers.delete(s.answers.keys().next().value as string);
    s.answers.set(key, hits);
  }
  return { items: hits, fresh };
}

/** The index searched by words, with what visitors chose and the synonyms; then, when on, fused with meaning. */
async function searchWithMeaning(
  s: SearchState,
  searchIndex: SearchIndex,
  query: { text: string; limit: number; audience: Audience; reader: Language; related: boolean },
) {
  const { text, limit, audience, reader, related } = query;
  // What visitors chose, and meaning, are for what visitors type; a title is looked for by its words.
  const chosen = related ? undefined : s.learned.get(learningKey(text, s.siteLang));
  const view = s.views?.get(reader);
  const extras = {
    synonyms: s.synonyms,
    exact: related,
    boost: chosen,
    ...(view && { only: view.searched, shown: view.shown, lang: reader }),
  };
  // A query of stopwords only finds nothing by its words, nor is it asked about.
  const { semantic } = s;
  const meaningful = !related && semantic !== null && words(text).some(({ word }) => !isStopword(word));
  const byMeaning = meaningful ? await semantic.embedQuery(text) : null;
  let found = searchIndex.search(text, byMeaning ? Math.max(limit, SEMANTIC_DEPTH) : limit, audience, extras);
  if (byMeaning && s.options.embeddings) {
    const { weight, minSimilarity } = s.options.embeddings;
    const near =
      semantic?.nearest(byMeaning, minSimilarity, (id) => searchIndex.readable(id, audience)) ?? [];
    const byWords = new Map(found.map((hit) => [hit.id, hit]));
    found = fuse([...byWords.keys()], near, weight)
      .slice(0, limit)
      .flatMap((id) => byWords.get(id) ?? searchIndex.hitFor(id) ?? []);
  }
  return found;
}

export function createSearchService(db: Executor, options: SearchServiceOptions = {}) {
  const s = initialState(db, options);
  return {
    /** The best articles for `text`, in the version a reader in `lang` (the site's when absent) is shown. */
    suggest(
      text: string,
      limit: number,
      audience: Audience,
      lang?: Language,
      /** `related`: the text is an article's title, looked for as written (QueryExtras.exact), for its page. */
      mode: 'query' | 'related' = 'query',
    ): Promise<{ items: Suggestion[]; fresh: boolean }> {
      return suggest(s, text, limit, audience, lang, mode);
    },
    /**
     * Builds or refreshes the index in the background; servers call it at start and every second. Articles the
     * embeddings endpoint could not be asked for (it was away) are asked for again every half minute.
     */
    refresh: async () => {
      await current(s);
      saveSnapshot(s);
      if (s.semantic?.behind && Date.now() - s.semanticRetryAt > SEMANTIC_RETRY_MS) {
        s.semanticRetryAt = Date.now();
        await s.semantic.update(await loadSearchDocuments(db));
      }
    },
    /** Settles when a background rebuild under way (if any) and the embedding of articles are complete. */
    settled: async () => {
      await (s.rebuilding ?? Promise.resolve());
      await s.semantic?.settled();
      await s.snapshotWriting;
    },
    /** Where to say what became of the snapshot. */
    logTo(target: SearchLog) {
      s.log = target;
    },
    /** Articles with an embedding (semantic matching only). */
    get embedded() {
      return s.semantic?.size ?? 0;
    },
    /** Whether the first build is complete, so searches answer without waiting for it. */
    get ready() {
      return s.index !== null;
    },
    get size() {
      return s.index?.size ?? 0;
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
