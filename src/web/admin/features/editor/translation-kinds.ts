import type { AdminFile } from '../../../../shared/api/admin.ts';
import type {
  ArticleTranslationView,
  CategoryTranslationView,
  SectionTranslationView,
  TranslationKind,
  TranslationParams,
} from '../../../../shared/api/admin-translations.ts';
import { href } from '../../../../shared/paths.ts';
import { adminCall } from '../../api/admin-api.ts';

/**
 * What differs between translating a section, a category and an article, as one descriptor per kind: the translation
 * editor asks its kind instead of comparing `kind` at every turn.
 */

interface Views {
  article: ArticleTranslationView;
  category: CategoryTranslationView;
  section: SectionTranslationView;
}

type Loaded<K extends TranslationKind> = { kind: K; view: Views[K] };

export type LoadedTranslation = { [K in TranslationKind]: Loaded<K> }[TranslationKind];

/** What every kind's view has: the languages, the state, the source and how it changed. */
export type TranslationViewCommon = Omit<SectionTranslationView, 'section_id' | 'name'>;

/** The translation's own fields as the form edits them, whatever the kind. */
export interface TranslationValues {
  name: string;
  html: string;
  files: AdminFile[];
}

/** The kind's HTML field (body or description), when it has one. */
interface HtmlFieldRules {
  field: 'body_html' | 'description';
  label: 'Body' | 'Description';
}

interface KindRules<V> {
  /** "Article", as the editor's place line names it; `what` is the same in a sentence. */
  label: string;
  what: string;
  nameField: 'title' | 'name';
  html: HtmlFieldRules | null;
  /** Whether the translation has attachments of its own. */
  hasFiles: boolean;
  idOf: (view: V) => number;
  valuesOf: (view: V) => TranslationValues;
  sourceFilesOf: (view: V) => AdminFile[];
  /** Where the source is edited, to go back to. */
  sourcePath: (id: number) => string;
  /** The item's public page, when it has one of its own. */
  publicHref: (id: number) => string | null;
  load: (params: TranslationParams) => Promise<V>;
  save: (params: TranslationParams, values: TranslationValues, published: boolean | undefined) => Promise<V>;
  publish: (params: TranslationParams, published: boolean) => Promise<V>;
  remove: (params: TranslationParams) => Promise<unknown>;
}

const publishedField = (published: boolean | undefined) => (published !== undefined ? { published } : {});

const KINDS: { [K in TranslationKind]: KindRules<Views[K]> } = {
  article: {
    label: 'Article',
    what: 'article',
    nameField: 'title',
    html: { field: 'body_html', label: 'Body' },
    hasFiles: true,
    idOf: (view) => view.article_id,
    valuesOf: (view) => ({ name: view.title, html: view.body_html, files: view.files }),
    sourceFilesOf: (view) => view.source_files,
    sourcePath: (id) => `/articles/${id}`,
    publicHref: (id) => href.instruction(id),
    load: (params) => adminCall('getArticleTranslation', { params }),
    save: (params, values, published) =>
      adminCall('saveArticleTranslation', {
        params,
        body: {
          title: values.name,
          body_html: values.html,
          file_ids: values.files.map((f) => f.id),
          ...publishedField(published),
        },
      }),
    publish: (params, published) => adminCall('publishArticleTranslation', { params, body: { published } }),
    remove: (params) => adminCall('deleteArticleTranslation', { params }),
  },
  category: {
    label: 'Category',
    what: 'category',
    nameField: 'name',
    html: { field: 'description', label: 'Description' },
    hasFiles: false,
    idOf: (view) => view.category_id,
    valuesOf: (view) => ({ name: view.name, html: view.description, files: [] }),
    sourceFilesOf: () => [],
    sourcePath: (id) => `/categories/${id}`,
    publicHref: (id) => href.category(id),
    load: (params) => adminCall('getCategoryTranslation', { params }),
    save: (params, values, published) =>
      adminCall('saveCategoryTranslation', {
        params,
        body: { name: values.name, description: values.html, ...publishedField(published) },
      }),
    publish: (params, published) => adminCall('publishCategoryTranslation', { params, body: { published } }),
    remove: (params) => adminCall('deleteCategoryTranslation', { params }),
  },
  section: {
    label: 'Section',
    what: 'section',
    nameField: 'name',
    html: null,
    hasFiles: false,
    idOf: (view) => view.section_id,
    valuesOf: (view) => ({ name: view.name, html: '', files: [] }),
    sourceFilesOf: () => [],
    sourcePath: () => '/',
    publicHref: () => null,
    load: (params) => adminCall('getSectionTranslation', { params }),
    save: (params, values, published) =>
      adminCall('saveSectionTranslation', {
        params,
        body: { name: values.name, ...publishedField(published) },
      }),
    publish: (params, published) => adminCall('publishSectionTranslation', { params, body: { published } }),
    remove: (params) => adminCall('deleteSectionTranslation', { params }),
  },
};

/** A loaded translation with its kind's rules applied: what the editor shows and the calls it makes. */
export interface Translation {
  kind: TranslationKind;
  id: number;
  view: TranslationViewCommon;
  rules: Pick<
    KindRules<never>,
    'label' | 'what' | 'nameField' | 'html' | 'hasFiles' | 'sourcePath' | 'publicHref'
  >;
  values: TranslationValues;
  sourceFiles: AdminFile[];
  save: (values: TranslationValues, published: boolean | undefined) => Promise<LoadedTranslation>;
  publish: (published: boolean) => Promise<LoadedTranslation>;
  remove: () => Promise<unknown>;
}

/** The loaded translation and its kind's rules, bound together (the kind and its view always go together). */
export function translationOf<K extends TranslationKind>(loaded: Loaded<K>): Translation {
  const { kind, view } = loaded;
  const rules = KINDS[kind];
  const id = rules.idOf(view);
  const params = { id, lang: view.lang };
  const as = (next: Views[K]) => ({ kind, view: next }) as LoadedTranslation;
  return {
    kind,
    id,
    view,
    rules,
    values: rules.valuesOf(view),
    sourceFiles: rules.sourceFilesOf(view),
    save: async (values, published) => as(await rules.save(params, values, published)),
    publish: async (published) => as(await rules.publish(params, published)),
    remove: () => rules.remove(params),
  };
}

/** The translation (or the blank for one) of the item of this kind, with its source. */
export async function loadTranslation<K extends TranslationKind>(
  kind: K,
  params: TranslationParams,
): Promise<LoadedTranslation> {
  return { kind, view: await KINDS[kind].load(params) } as LoadedTranslation;
}
