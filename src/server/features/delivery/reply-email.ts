import type { Language } from '../../../shared/constants.ts';
import { href } from '../../../shared/paths.ts';
import type { AppContext } from '../../context.ts';
import type { FileRow, TicketMessageRow, TicketRow } from '../../db/tables.ts';
import { saveTicketLink } from '../../tickets/ticket-links.ts';

/** What a reply's email says around the reply itself, in the requester's language. */
const TEXTS = {
  en: {
    replied: '{{author}} replied to your request “{{title}}”:',
    open: 'Read the whole conversation and answer here:',
    files: 'Attached files:',
  },
  ru: {
    replied: '{{author}} ответил(а) на ваше обращение «{{title}}»:',
    open: 'Вся переписка и ответ — по ссылке:',
    files: 'Приложенные файлы:',
  },
  'pt-BR': {
    replied: '{{author}} respondeu à sua solicitação “{{title}}”:',
    open: 'Leia a conversa completa e responda aqui:',
    files: 'Arquivos anexados:',
  },
  it: {
    replied: '{{author}} ha risposto alla sua richiesta “{{title}}”:',
    open: 'Legga l’intera conversazione e risponda qui:',
    files: 'File allegati:',
  },
  sk: {
    replied: '{{author}} odpovedal(a) na vašu požiadavku „{{title}}“:',
    open: 'Celú konverzáciu si prečítajte a odpovedzte tu:',
    files: 'Priložené súbory:',
  },
} satisfies Record<Language, Record<string, string>>;

const textsOf = (lang: string) => TEXTS[lang as Language] ?? TEXTS.en;

/**
 * The address of the thread for the requester: the portal page itself for an account's request; for a request
 * sent without an account, the page with a private key, derived from the message so every attempt sends the same
 * link (only its hash is stored, valid 30 days from the message).
 */
export async function threadLink(
  ctx: AppContext,
  ticket: TicketRow,
  message: TicketMessageRow,
): Promise<string> {
  const page = `${ctx.config.publicUrl}${href.portalIssue(ticket.id)}`;
  if (ticket.user_id !== null) return page;
  const key = await saveTicketLink(ctx.db, ticket.id, `message:${message.id}`, Number(message.created_at));
  return `${page}?key=${key}`;
}

export function replyEmailText(
  ticket: TicketRow,
  message: TicketMessageRow,
  files: FileRow[],
  link: string,
): string {
  const texts = textsOf(ticket.lang);
  const fill = (template: string) =>
    template.replace('{{author}}', message.author_name).replace('{{title}}', ticket.title);
  const lines = [fill(texts.replied), '', message.body_text, ''];
  if (files.length > 0) lines.push(texts.files, ...files.map((file) => `- ${file.original_name}`), '');
  lines.push(texts.open, link);
  return `${lines.join('\n')}\n`;
}

/** What the team reads when the requester answers: the reply, and where to answer it. */
export function teamEmailText(
  ctx: AppContext,
  ticket: TicketRow,
  message: TicketMessageRow,
  files: FileRow[],
) {
  const lines = [
    `${message.author_name} <${ticket.email}> replied to request #${ticket.id} “${ticket.title}”:`,
    '',
  ];
  lines.push(message.body_text, '');
  if (files.length > 0) lines.push('Attached files:', ...files.map((file) => `- ${file.original_name}`), '');
  lines.push('Answer in the admin app:', `${ctx.config.publicUrl}/admin/requests/${ticket.id}`);
  return `${lines.join('\n')}\n`;
}
