import type {
  AdminArticle,
  AdminArticleSummary,
  AdminCategory,
  AdminFile,
  AdminSection,
  AdminUser,
  Revision,
  RevisionSummary,
  TranslationSummary,
} from '../../shared/api/admin.ts';
import type { Language } from '../../shared/api/settings.ts';
import { href } from '../../shared/paths.ts';
import { isInvited } from '../accounts/accounts.service.ts';
import type {
  ArticleRevisionRow,
  ArticleRow,
  CategoryRow,
  FileRow,
  SectionRow,
  UserRow,
} from '../db/tables.ts';

const isoOf = (millis: number) => new Date(Number(millis)).toISOString();

export function presentAdminSection(section: SectionRow, translations?: TranslationSummary[]): AdminSection {
  return {
    lang: section.lang as Language | null,
    ...(translations && { translations }),
    id: section.id,
    name: section.name,
    position: section.position,
    visibility: section.visibility,
    updated_at: isoOf(section.updated_at),
  };
}

export function presentAdminCategory(
  category: CategoryRow,
  icon: FileRow | undefined,
  translations?: TranslationSummary[],
): AdminCategory {
  return {
    lang: category.lang as Language | null,
    ...(translations && { translations }),
    id: category.id,
    section_id: category.section_id,
    parent_id: category.parent_id,
    name: category.name,
    description: category.description,
    position: category.position,
    icon_type: category.icon_type,
    font_icon: category.font_icon,
    icon_url: icon ? href.file(icon.id, icon.original_name) : null,
    visibility: category.visibility,
    updated_at: isoOf(category.updated_at),
  };
}

type SummaryRow = Pick<
  ArticleRow,
  | 'id'
  | 'section_id'
  | 'category_id'
  | 'title'
  | 'position'
  | 'published'
  | 'can_create_issue'
  | 'visibility'
  | 'updated_at'
>;

export function presentAdminArticleSummary(article: SummaryRow): AdminArticleSummary {
  return {
    id: article.id,
    section_id: article.section_id,
    category_id: article.category_id,
    title: article.title,
    position: article.position,
    published: article.published === 1,
    can_create_issue: article.can_create_issue === 1,
    visibility: article.visibility,
    updated_at: isoOf(article.updated_at),
  };
}

export function presentAdminFile(file: FileRow): AdminFile {
  return {
    id: file.id,
    name: file.original_name,
    size: Number(file.size),
    mime_type: file.mime_type,
    url: href.file(file.id, file.original_name),
  };
}

export function presentAdminArticle(
  article: ArticleRow,
  files: FileRow[],
  revisionId: number | null,
  translations: TranslationSummary[],
): AdminArticle {
  return {
    ...presentAdminArticleSummary(article),
    body_html: article.body_html,
    lang: article.lang as Language | null,
    noindex: article.noindex === 1,
    files: files.map(presentAdminFile),
    revision_id: revisionId ?? 0,
    created_at: isoOf(article.created_at),
    translations,
  };
}

type RevisionSummaryRow = Omit<ArticleRevisionRow, 'body_html'>;

export function presentRevisionSummary(revision: RevisionSummaryRow): RevisionSummary {
  return {
    id: revision.id,
    number: revision.number,
    created_at: isoOf(revision.created_at),
    author:
      revision.user_id === null
        ? null
        : { id: revision.user_id, name: revision.user_name ?? `User ${revision.user_id}` },
    action: revision.action,
    restored_from: revision.restored_from,
    title: revision.title,
    published: revision.published === 1,
  };
}

export const revisionFileIds = (revision: Pick<ArticleRevisionRow, 'file_ids'>): number[] => {
  const parsed: unknown = JSON.parse(revision.file_ids);
  return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
};

export function presentRevision(revision: ArticleRevisionRow): Revision {
  return {
    ...presentRevisionSummary(revision),
    body_html: revision.body_html,
    can_create_issue: revision.can_create_issue === 1,
    lang: revision.lang as Language | null,
    file_ids: revisionFileIds(revision),
  };
}

export function presentAdminUser(user: UserRow): AdminUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    email_verified: user.email_verified_at !== null,
    invited: isInvited(user),
    created_at: isoOf(user.created_at),
  };
}
