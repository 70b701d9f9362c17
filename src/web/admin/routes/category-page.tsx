import { useLoaderData } from 'react-router';
import type { AdminCategory } from '../../../shared/api/admin.ts';
import { CategoryEditor } from '../features/editor/category-editor.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';

// Loaded on demand (routes.tsx), like the article page: the description uses the rich-text editor.

export function CategoryPage() {
  const category = useLoaderData() as AdminCategory;
  usePageTitle(category.name);
  return <CategoryEditor key={category.id} category={category} />;
}
