import { useEffect } from 'react';
import { href } from '../../shared/paths.ts';
import { data, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { apiFrom } from '../api/api-context.ts';
import { HtmlContent } from '../components/html-content.tsx';
import { ArticleFeedback } from '../features/knowledge/article-feedback.tsx';
import { ArticleList } from '../features/knowledge/article-list.tsx';
import { FileList } from '../features/knowledge/file-list.tsx';
import {
  hasSignInPrompt,
  isSignInRequired,
  SignInPrompt,
  type SignInRequired,
} from '../features/knowledge/sign-in-prompt.tsx';
import { RequestSection } from '../features/request/request-section.tsx';
import { Trail } from '../features/knowledge/trail.tsx';
import { useI18n } from '../i18n/i18n.tsx';
import { storageKeys, writeItem } from '../lib/storage.ts';
import { computeTrail } from '../lib/trail.ts';
import { describe, parseId } from '../lib/text.ts';
import type { RouteHandle } from './head.ts';
import type { Instruction } from '../../shared/api/knowledge.ts';

export async function instructionLoader({ params, context }: LoaderFunctionArgs) {
  const id = parseId(params.id);
  const api = apiFrom(context);
  // The spec: an article that cannot be fetched sends the visitor to /404.
  if (id === null) throw redirect(href.notFoundPage());
  let restricted = false;
  const [instruction, bundle, sections, categories] = await Promise.all([
    api.instruction(id).catch((error: unknown) => {
      restricted = isSignInRequired(error);
      return null;
    }),
    api.instructionBundle(),
    api.sections(),
    api.categories(),
  ]);
  // For signed-in visitors, and this one is not: a prompt to sign in (401), nothing of the article.
  if (restricted) return data<SignInRequired>({ signInRequired: true }, { status: 401 });
  if (!instruction) throw redirect(href.notFoundPage());
  const siblings = bundle.items
    .filter((a) => a.section_id === instruction.section_id)
    .map(({ id: articleId, title }) => ({ id: articleId, title }));
  const trail = computeTrail(
    { sections, categories: categories.items },
    { categoryId: instruction.category_id, sectionId: instruction.section_id, instruction },
  );
  return { instruction, siblings, trail };
}

interface InstructionData {
  instruction: Instruction;
  siblings: { id: number; title: string }[];
  trail: ReturnType<typeof computeTrail>;
}

export const instructionHandle: RouteHandle = {
  head: (loaded, t) => {
    if (hasSignInPrompt(loaded)) return { title: t('signInToReadTitle') };
    const instruction = (loaded as InstructionData | undefined)?.instruction;
    return instruction ? { title: instruction.title, description: describe(instruction.description) } : {};
  },
};

export function InstructionPage() {
  const loaded = useLoaderData() as InstructionData | SignInRequired;
  return hasSignInPrompt(loaded) ? <SignInPrompt /> : <Article {...loaded} />;
}

function Article({ instruction, siblings, trail }: InstructionData) {
  const { t } = useI18n();

  useEffect(() => {
    writeItem(storageKeys.currentSection, String(instruction.section_id));
  }, [instruction.section_id]);

  return (
    <div className="instruction-layout">
      <article className="instruction">
        <Trail steps={trail} />
        <h1>{instruction.title}</h1>
        <HtmlContent html={instruction.description} />
        <FileList files={instruction.files} />
        <ArticleFeedback key={instruction.id} articleId={instruction.id} />
        {instruction.can_create_issue && <RequestSection instruction={instruction} trail={trail} />}
      </article>
      {siblings.length > 1 && (
        <aside className="sidebar" aria-labelledby="sidebar-heading">
          <h2 id="sidebar-heading">{t('articlesInSection')}</h2>
          <ArticleList articles={siblings} currentId={instruction.id} />
        </aside>
      )}
    </div>
  );
}
