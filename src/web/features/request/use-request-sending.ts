import { useState } from 'react';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import type { IssueOpenBody } from '../../../shared/api/tickets.ts';
import { REQUEST_TOAST_MS, SENT_STATE_MS } from '../../../shared/constants.ts';
import { href } from '../../../shared/paths.ts';
import { withLang } from '../../../shared/page-language.ts';
import { useToast } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { readAuthToken } from '../../lib/storage.ts';
import type { TrailStep } from '../../lib/trail.ts';
import { useHeldFor } from '../../lib/use-held-for.ts';
import { useRootData } from '../../lib/use-root-data.ts';
import { openIssue, uploadFiles } from './request-api.ts';
import { useCaptcha } from './use-captcha.ts';
import type { RequestValues } from './use-sender-details.ts';

/** The spec's request description: the visitor's text, then where they were (trail and the article's address). */
export function composeDescription(text: string, trail: TrailStep[], articleUrl: string): string {
  const where = trail.map((step) => step.name).join(' > ');
  return `${text.trim()}\n\n---\n${where}\n${articleUrl}`;
}

export type OpenedIssue = Awaited<ReturnType<typeof openIssue>>;

/**
 * Sending a request from an article: its files uploaded first, then the request with the captcha's answer. While
 * on its way `sending`; once sent, as the spec says, `justSent` holds for 5 seconds and a toast reads 'Sent' for 5
 * seconds (in the page's one toast region). The form hears the answer or the refusal in the same step, so all it
 * changes shows at once. Each send asks the captcha for a fresh answer, good for one request only.
 */
export function useRequestSending(instruction: Instruction, trail: TrailStep[]) {
  const { t, pageLang } = useI18n();
  const { branding, environments, sections } = useRootData();
  const [sending, setSending] = useState(false);
  const [justSent, holdSent] = useHeldFor<true>();
  const showToast = useToast(REQUEST_TOAST_MS, 'request-toast');
  const [round, setRound] = useState(0);
  const captcha = useCaptcha(environments, round);

  // What the server records: the site's title and the article's section as the title, and the page's language.
  const issueBody = (values: RequestValues, uploaded: { id: number }[]): IssueOpenBody => {
    const section = sections.find((s) => s.id === instruction.section_id);
    const articleUrl = `${environments.knowledge_portal}${withLang(href.instruction(instruction.id), pageLang)}`;
    return {
      title: [branding.site_title, section?.name].filter(Boolean).join(': '),
      description: composeDescription(values.description, trail, articleUrl),
      channel: 'web',
      name: values.name.trim(),
      email: values.email.trim(),
      files: uploaded.map((file) => file.id),
      g_recaptcha_response: captcha.read(),
      // The page's language: the ticket records it (its title and trail are already in it).
      ...(pageLang && { lang: pageLang }),
    };
  };

  const send = async (
    values: RequestValues,
    files: File[],
    then: { sent: (issue: OpenedIssue) => void; refused: (error: unknown) => void },
  ) => {
    setSending(true);
    const token = readAuthToken();
    try {
      const uploaded = files.length ? await uploadFiles(files, token) : [];
      const issue = await openIssue(issueBody(values, uploaded), token);
      then.sent(issue);
      setSending(false);
      holdSent(true, SENT_STATE_MS);
      showToast(t('sent'));
    } catch (error) {
      setSending(false);
      then.refused(error);
    } finally {
      setRound((value) => value + 1);
    }
  };

  return { sending, justSent, captcha, send };
}
