import { useEffect, useMemo } from 'react';
import { href } from '../../shared/paths.ts';
import { data, Link, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { pageApi } from '../api/api-context.ts';
import { LANGUAGE_NAMES, pageLanguageOf, withLang } from '../../shared/page-language.ts';
import { HtmlContent } from '../components/html-content.tsx';
import { ToastRegion } from '../components/toast.tsx';
import { ArticleFeedback } from '../features/knowledge/article-feedback.tsx';
import { ArticleList } from '../features/knowledge/article-list.tsx';
import { outlineArticle } from '../lib/article-outline.ts';
import {
  ArticleMeta,
  ArticlePager,
  onHeadingAnchorClick,
  RelatedArticles,
  TableOfContents,
  useCopyLink,
  type ArticleLink,
} from '../features/knowledge/article-parts.tsx';
import { FileList } from '../features/knowledge/file-list.tsx';
import {
  hasSignInPrompt,
  isSignInRequired,
  SignInPrompt,
  type SignInRequired,
} from '../features/knowledge/sign-in-prompt.tsx';
import { RequestSection } from '../features/request/request-section.tsx';
import { Trail } from '../features/knowledge/trail.tsx';
import { shownLang, useI18n } from '../i18n/i18n.tsx';
import { storageKeys, writeItem } from '../lib/storage.ts';
import { computeTrail } from '../lib/trail.ts';
import { describe, parseId } from '../lib/text.ts';
import type { RouteHandle } from './head.ts';
import { useRootData } from '../lib/use-root-data.ts';
import { breadcrumbList, publisher } from './seo.ts';
import type { Instruction, InstructionNearby } from '../../shared/api/knowledge.ts';

export async function instructionLoader({ params, context, request }: LoaderFunctionArgs) {
  const id = parseId(params.id);
  const api = pageApi(context, request);
  const notFoundPage = withLang(href.notFoundPage(), pageLanguageOf(new URL(request.url).search));
  // The spec: an article that cannot be fetched sends the visitor to /404.
  if (id === null) throw redirect(notFoundPage);
  let restricted = false;
  const [instruction, nearby, sections, categories] = await Promise.all([
    api.instruction(id).catch((error: unknown) => {
      restricted = isSignInRequired(error);
      return null;
    }),
    // The sidebar's list and the pager: a few dozen links, not every article of the help centre.
    api.instructionNearby(id).catch(() => null),
    api.sections(),
    api.categories(),
  ]);
  // For signed-in visitors, and this one is not: a prompt to sign in (401), nothing of the article.
  if (restricted) return data<SignInRequired>({ signInRequired: true }, { status: 401 });
  if (!instruction) throw redirect(notFoundPage);
  const { siblings, all, previous, next, related } = nearby ?? {
    siblings: [],
    all: null,
    previous: null,
    next: null,
    related: [],
  };
  const trail = computeTrail(
    { sections, categories: categories.items },
    { categoryId: instruction.category_id, sectionId: instruction.section_id, instruction },
  );
  return { instruction, siblings, all, previous, next, related, trail };
}

interface InstructionData {
  instruction: Instruction;
  siblings: ArticleLink[];
  all: InstructionNearby['all'];
  previous: ArticleLink | null;
  next: ArticleLink | null;
  related: ArticleLink[];
  trail: ReturnType<typeof computeTrail>;
}

export const instructionHandle: RouteHandle = {
  head: (loaded, t) => {
    if (hasSignInPrompt(loaded)) return { title: t('signInToReadTitle') };
    const instruction = (loaded as InstructionData | undefined)?.instruction;
    return instruction
      ? {
          title: instruction.title,
          description: describe(instruction.description),
          noindex: instruction.noindex,
        }
      : {};
  },
  seo: (loaded, site) => {
    if (hasSignInPrompt(loaded) || !loaded) return {};
    const { instruction, trail } = loaded as InstructionData;
    const url = site.address(href.instruction(instruction.id));
    return {
      type: 'article',
      path: href.instruction(instruction.id),
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline:
            instruction.title.length > 110 ? `${instruction.title.slice(0, 109)}…` : instruction.title,
          description: describe(instruction.description),
          datePublished: instruction.created_at,
          dateModified: instruction.updated_at,
          inLanguage: instruction.lang,
          author: publisher(site),
          publisher: publisher(site),
          mainEntityOfPage: { '@type': 'WebPage', '@id': url },
          url,
        },
        breadcrumbList(site, trail),
      ],
    };
  },
};

export function InstructionPage() {
  const loaded = useLoaderData() as InstructionData | SignInRequired;
  if (hasSignInPrompt(loaded)) return <SignInPrompt />;
  // The page's one toast: 'Link copied' and the request form's 'Sent' take turns in it.
  return (
    <ToastRegion>
      <Article {...loaded} />
    </ToastRegion>
  );
}

/** Articles with at least this many section headings get a table of contents. */
const TOC_MIN_HEADINGS = 3;

function Article({ instruction, siblings, all, previous, next, related, trail }: InstructionData) {
  const { t, lang, localHref } = useI18n();
  // Shown in another language than the visitor's, for want of a version in theirs: marked, and said.
  const fallback = shownLang(instruction.lang, lang);
  const { environments } = useRootData();
  const outline = useMemo(
    () => outlineArticle(instruction.description, (title) => t('copyLinkToSection', { title })),
    [instruction.description, t],
  );
  const copy = useCopyLink();
  // The article's address on the help centre's public host, as the request form sends it.
  const articleUrl = `${environments.knowledge_portal}${localHref(href.instruction(instruction.id))}`;
  const toc = outline.headings.length >= TOC_MIN_HEADINGS ? outline.headings : [];

  useEffect(() => {
    writeItem(storageKeys.currentSection, String(instruction.section_id));
  }, [instruction.section_id]);

  return (
    <div className="instruction-layout">
      <article
        className="instruction"
        onClick={(event) => onHeadingAnchorClick(event, (hash) => void copy(`${articleUrl}${hash}`))}
      >
        <Trail steps={trail} />
        {fallback && (
          <p className="fallback-note" role="note">
            {t('articleFallbackNote', { language: LANGUAGE_NAMES[fallback] })}
          </p>
        )}
        <h1 lang={fallback}>{instruction.title}</h1>
        <ArticleMeta
          updatedAt={instruction.updated_at}
          words={outline.words}
          onCopy={() => void copy(articleUrl)}
        />
        {toc.length > 0 && <TableOfContents headings={toc} placement="top" />}
        <HtmlContent html={outline.html} lang={fallback} />
        <FileList files={instruction.files} />
        <ArticlePager previous={previous} next={next} />
        <RelatedArticles articles={related} />
        <ArticleFeedback key={instruction.id} articleId={instruction.id} />
        {instruction.can_create_issue && <RequestSection instruction={instruction} trail={trail} />}
      </article>
      {/* The spec's list of the articles, the current one in bold, even when it is the section's only one. */}
      {(siblings.length > 0 || toc.length > 0) && (
        <aside className="sidebar">
          {siblings.length > 0 && (
            <section aria-labelledby="sidebar-heading">
              <h2 id="sidebar-heading">{t('articlesInSection')}</h2>
              <ArticleList articles={siblings} currentId={instruction.id} />
              {all && <AllArticlesLink all={all} />}
            </section>
          )}
          {/* Last, so that it sticks once the list has scrolled away, covering nothing. */}
          {toc.length > 0 && <TableOfContents headings={toc} placement="side" />}
        </aside>
      )}
    </div>
  );
}

/**
 * Where the sidebar's whole list is, when it shows part of it. A category's page lists exactly the category's
 * articles: "See all articles (N)". The section on the home page lists its articles outside any category and its
 * categories' tiles, not N links: the link names the section, as its heading there does, and gives no count.
 */
function AllArticlesLink({ all }: { all: NonNullable<InstructionNearby['all']> }) {
  const { t, lang, localHref } = useI18n();
  const { sections } = useRootData();
  if (all.category_id !== null)
    return (
      <Link className="all-articles" to={localHref(href.category(all.category_id))}>
        {t('allArticles', { total: all.total.toLocaleString(lang) })}
      </Link>
    );
  // The reader's sections are those of the article they read: its own is among them.
  const section = sections.find((candidate) => candidate.id === all.section_id);
  if (!section) return null;
  return (
    <Link className="all-articles" to={`${localHref(href.home())}#section-${all.section_id}`}>
      {t('allArticlesInSection', { section: section.name })}
    </Link>
  );
}
