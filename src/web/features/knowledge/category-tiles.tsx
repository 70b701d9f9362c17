import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';
import type { Category } from '../../../shared/api/knowledge.ts';
import { useI18n } from '../../i18n/i18n.tsx';

export function CategoryTile({ category }: { category: Category }) {
  const { t } = useI18n();
  const counts = [
    category.count_category > 0 ? t('categoryCount', { count: category.count_category }) : null,
    category.count_instruction > 0 ? t('articleCount', { count: category.count_instruction }) : null,
  ].filter(Boolean);
  return (
    <li className="tile">
      <Link to={href.category(category.id)} className="tile-link">
        {category.icon_type === 'file' && category.icon ? (
          <img className="tile-icon" src={category.icon.link} alt="" width={40} height={40} />
        ) : category.icon_type === 'font' && category.font_icon ? (
          <span className={`tile-icon tile-font-icon ${category.font_icon}`} aria-hidden="true" />
        ) : (
          <span className="tile-icon tile-icon-default" aria-hidden="true" />
        )}
        <span className="tile-name">{category.name}</span>
        <span className="tile-counts">{counts.join(' · ')}</span>
      </Link>
    </li>
  );
}

/** Only categories with something in them become tiles. */
export const hasContent = (c: Category) => c.count_category > 0 || c.count_instruction > 0;
