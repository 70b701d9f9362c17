import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';

export interface ArticleLink {
  id: number;
  title: string;
}

export function ArticleItem({ article, current }: { article: ArticleLink; current?: boolean }) {
  return (
    <li className="article-item">
      {current ? (
        <strong aria-current="page">{article.title}</strong>
      ) : (
        <Link to={href.instruction(article.id)}>{article.title}</Link>
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
