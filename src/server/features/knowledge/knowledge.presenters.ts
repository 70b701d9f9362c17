import type { Category, Instruction, InstructionSummary, Section } from '../../../shared/api/knowledge.ts';
import type { Language } from '../../../shared/constants.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import type { ArticleSummaryRow } from './knowledge.repository.ts';
import type { Catalog } from './catalog.ts';
import { presentFile } from '../../files/file-ref.ts';

export function presentSection(section: SectionRow, catalog: Catalog): Section {
  const counts = catalog.sectionCounts(section.id);
  return { id: section.id, ...catalog.language.section(section), ...counts };
}

export function presentCategory(
  category: CategoryRow,
  catalog: Catalog,
  icons: Map<number, FileRow>,
): Category {
  const icon = category.icon_file_id !== null ? icons.get(category.icon_file_id) : undefined;
  const shown = catalog.language.category(category);
  const { count_instruction, count_category } = catalog.categoryCounts(category.id);
  // In the contract's order, as a page rendered on the server reads it in process (render/page-calls.ts).
  return {
    id: category.id,
    name: shown.name,
    lang: shown.lang,
    section_id: category.section_id,
    parent_id: category.parent_id,
    description: shown.description,
    icon: icon ? presentFile(icon) : null,
    icon_type: category.icon_type,
    font_icon: category.font_icon,
    count_instruction,
    count_category,
  };
}

/** The text of the version a reader gets (see content/translations.ts): the row's own or a translation's. */
export interface ShownText {
  title: string;
  lang: Language;
}

export function presentInstructionSummary(article: ArticleSummaryRow, shown: ShownText): InstructionSummary {
  return {
    id: article.id,
    title: shown.title,
    lang: shown.lang,
    section_id: article.section_id,
    category_id: article.category_id,
    can_create_issue: article.can_create_issue === 1,
  };
}

export function presentInstruction(
  article: ArticleRow,
  shown: ShownText & { body_html: string; updated_at: number },
  files: FileRow[],
): Instruction {
  const { id, title, lang, ...placed } = presentInstructionSummary(article, shown);
  // In the contract's order, as a page rendered on the server reads it in process (render/page-calls.ts).
  return {
    id,
    title,
    lang,
    description: shown.body_html,
    ...placed,
    files: files.map(presentFile),
    created_at: new Date(Number(article.created_at)).toISOString(),
    updated_at: new Date(Number(shown.updated_at)).toISOString(),
    noindex: article.noindex === 1,
  };
}
