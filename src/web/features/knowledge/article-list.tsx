import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';
import type { Language } from '../../../shared/constants.ts';
import { shownLang, useI18n } from '../../i18n/i18n.tsx';

export interface ArticleLink {
  id: number;
  title: string;
  /** The language of the title shown (a fallback is marked with it). */
  lang?: Language;
}

export function ArticleItem({ article, current }: { article: ArticleLink; current?: boolean }) {
  const { lang, localHref } = useI18n();
  return (
    <li className="article-item" lang={shownLang(article.lang, lang)}>
      {current ? (
        <strong aria-current="page">{article.title}</strong>
      ) : (
        <Link to={localHref(href.instruction(article.id))}>{article.title}</Link>
      )}
    </li>
  );
}

export function ArticleList({ articles, currentId }: { articles: ArticleLink[]; currentId?: number }) {
  return (
    <ul className="article-list">
      {articles.map((article) => (
        <ArticleItem key={article.id} article={article} current={article.id === currentId} />
      ))}
    </ul>
  );
}
