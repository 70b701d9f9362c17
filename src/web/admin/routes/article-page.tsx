import { useLoaderData } from 'react-router';
import type { AdminArticle } from '../../../shared/api/admin.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { ArticleEditor, type Placement } from '../features/editor/article-editor.tsx';

// Loaded on demand (routes.tsx): the rich-text editor is most of the admin app's weight.

export function ArticlePage() {
  const article = useLoaderData() as AdminArticle;
  usePageTitle(article.title);
  return (
    <ArticleEditor
      key={article.id}
      article={article}
      placement={{ sectionId: article.section_id, categoryId: article.category_id }}
    />
  );
}

export function NewArticlePage() {
  const placement = useLoaderData() as Placement;
  usePageTitle('New article');
  return (
    <ArticleEditor
      key={`new-${placement.sectionId}-${placement.categoryId ?? 0}`}
      article={null}
      placement={placement}
    />
  );
}
