import type { Executor } from '../db/database.ts';
import type { CategoryRow, FileRow, SectionRow } from '../db/tables.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { isSafeInline } from '../lib/content-type.ts';
import { filesByIds, findCategory, findSection } from './content.repository.ts';

/** A name as stored: trimmed, and not only spaces. */
export function cleanName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest(field, 'must not be empty');
  return trimmed;
}

/** The section something goes into: 404 naming the field (`section_id` unless told) when there is none. */
export async function requireSection(db: Executor, id: number, field = 'section_id'): Promise<SectionRow> {
  const section = await findSection(db, id);
  if (!section)
    throw new ApiError(404, 'not_found', `Section ${id} was not found`, [{ field, message: 'is not a section' }]);
  return section;
}

/** The category something goes into: 404 naming the field when there is none. */
export async function requireCategory(db: Executor, id: number, field: string): Promise<CategoryRow> {
  const category = await findCategory(db, id);
  if (!category)
    throw new ApiError(404, 'not_found', `Category ${id} was not found`, [{ field, message: 'is not a category' }]);
  return category;
}

/** Files an admin may attach or show: content files (from POST /api/admin/files or an import), never a visitor's. */
export async function requireContentFiles(db: Executor, ids: number[], field: string): Promise<FileRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) throw badRequest(field, 'lists a file more than once');
  const found = await filesByIds(db, unique);
  const missing = unique.filter((id) => found.get(id)?.kind !== 'content');
  if (missing.length) {
    throw new ApiError(400, 'invalid_request', `${field}: file ${missing.join(', ')} was not uploaded here`, [
      { field, message: `file ${missing.join(', ')} is not an uploaded content file` },
    ]);
  }
  return unique.map((id) => found.get(id) as FileRow);
}

/** An icon, logo or background: a content file a browser shows inline (PNG, JPEG, GIF, WebP, AVIF). */
export async function requireContentImage(db: Executor, id: number, field: string): Promise<FileRow> {
  const [file] = await requireContentFiles(db, [id], field);
  if (!file || !isSafeInline(file.mime_type)) {
    throw badRequest(field, 'must be a PNG, JPEG, GIF, WebP or AVIF image');
  }
  return file;
}

/** The query of a delete: at most one of content=delete, move_to_section_id, move_to_category_id. */
export function checkOneDeleteOption(query: {
  content?: 'delete';
  move_to_section_id?: number;
  move_to_category_id?: number;
}): void {
  const given = (['content', 'move_to_section_id', 'move_to_category_id'] as const).filter(
    (key) => query[key] !== undefined,
  );
  if (given.length > 1) {
    throw new ApiError(400, 'invalid_request', `Give only one of ${given.join(', ')}`, [
      ...given.map((field) => ({ field, message: 'cannot be combined with the others' })),
    ]);
  }
}

export function notEmpty(what: string, categories: number, articles: number): ApiError {
  const parts = [
    categories ? `${categories} ${categories === 1 ? 'category' : 'categories'}` : '',
    articles ? `${articles} ${articles === 1 ? 'article' : 'articles'}` : '',
  ].filter(Boolean);
  return new ApiError(
    409,
    'not_empty',
    `${what} still holds ${parts.join(' and ')}: delete them too (content=delete) or move them first ` +
      '(move_to_section_id or move_to_category_id)',
  );
}
