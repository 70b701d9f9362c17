import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';
import type { Category } from '../../../shared/api/knowledge.ts';
import { isFontIcon } from '../../../shared/constants.ts';
import { FontIcon } from '../../components/font-icon.tsx';
import { shownLang, useI18n } from '../../i18n/i18n.tsx';

/** A category's icon: its uploaded image, its Font Awesome glyph, or a folder drawn in the same tinted circle. */
function CategoryIcon({ category }: { category: Category }) {
  if (category.icon_type === 'file' && category.icon) {
    return <img className="tile-icon" src={category.icon.link} alt="" width={48} height={48} />;
  }
  // Stored values were checked when saved; one from before that rule that is not plain class names shows the folder.
  if (category.icon_type === 'font' && category.font_icon && isFontIcon(category.font_icon)) {
    return (
      <span className="tile-icon">
        <FontIcon classes={category.font_icon} className="tile-glyph" />
      </span>
    );
  }
  return (
    <span className="tile-icon tile-icon-default">
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path
          d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.38a1.5 1.5 0 0 1 1.06.44L11.5 7h8A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}

export function CategoryTile({ category }: { category: Category }) {
  const { t, lang, localHref } = useI18n();
  const counts = [
    category.count_category > 0 ? t('categoryCount', { count: category.count_category }) : null,
    category.count_instruction > 0 ? t('articleCount', { count: category.count_instruction }) : null,
  ].filter(Boolean);
  return (
    <li className="tile" lang={shownLang(category.lang, lang)}>
      <Link to={localHref(href.category(category.id))} className="tile-link">
        <CategoryIcon category={category} />
        <span className="tile-name">{category.name}</span>
        <span className="tile-counts">{counts.join(' · ')}</span>
      </Link>
    </li>
  );
}

/** Only categories with something in them become tiles. */
export const hasContent = (c: Category) => c.count_category > 0 || c.count_instruction > 0;
