import type { Category, Instruction, InstructionSummary, Section } from '../../../shared/api/knowledge.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import type { ArticleSummaryRow } from './knowledge.repository.ts';
import type { Catalog } from './catalog.ts';
import { presentFile } from '../../files/file-ref.ts';

export function presentSection(section: SectionRow, catalog: Catalog): Section {
  const counts = catalog.sectionCounts(section.id);
  return { id: section.id, name: section.name, ...counts };
}

export function presentCategory(
  category: CategoryRow,
  catalog: Catalog,
  icons: Map<number, FileRow>,
): Category {
  const icon = category.icon_file_id !== null ? icons.get(category.icon_file_id) : undefined;
  return {
    id: category.id,
    name: category.name,
    section_id: category.section_id,
    parent_id: category.parent_id,
    description: category.description,
    icon: icon ? presentFile(icon) : null,
    icon_type: category.icon_type,
    font_icon: category.font_icon,
    ...catalog.categoryCounts(category.id),
  };
}

export function presentInstructionSummary(article: ArticleSummaryRow): InstructionSummary {
  return {
    id: article.id,
    title: article.title,
    section_id: article.section_id,
    category_id: article.category_id,
    can_create_issue: article.can_create_issue === 1,
  };
}

export function presentInstruction(article: ArticleRow, files: FileRow[]): Instruction {
  return {
    ...presentInstructionSummary(article),
    description: article.body_html,
    files: files.map(presentFile),
    created_at: new Date(Number(article.created_at)).toISOString(),
    updated_at: new Date(Number(article.updated_at)).toISOString(),
    noindex: article.noindex === 1,
  };
}
