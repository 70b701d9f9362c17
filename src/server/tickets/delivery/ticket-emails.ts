import { escapeHtml } from '../../../shared/html.ts';
import type { Language } from '../../../shared/constants.ts';
import type { AppContext } from '../../context.ts';
import type { FileRow, TicketMessageRow, TicketRow } from '../../db/tables.ts';
import type { OutgoingMail } from '../../lib/send-mail.ts';
import { awaitsOwner } from '../sender-access.ts';
import { messageIdOf } from './message-ids.ts';

/*
 * Every mail about a request says what it says here: to the requester (receipt, reply), to the team (the requester's
 * reply) and to the support address or the team (a new request). sendMail (lib/send-mail.ts) sends them all.
 */

/** What a reply's email says around the reply itself, in the requester's language. */
const TEXTS = {
  en: {
    replied: '{{author}} replied to your request “{{title}}”:',
    repliedUnproved: '{{author}} replied to support request #{{id}}, which gave this email address:',
    replySubject: 'Request #{{id}}',
    answer: 'To answer, reply to this email.',
    files: 'Attached files:',
    read: 'Read the whole conversation and answer it here:',
    received: 'We have received your request “{{title}}”. Our support team will answer you by email.',
    follow: 'Follow it and add to it here:',
    receivedSubject: 'Request #{{id}} received',
    receivedUnproved: 'We have received a support request that gave this email address.',
    followUnproved: 'If it was you, read it, follow it and add to it here:',
    notYou: 'If it was not you, ignore this email.',
  },
  ru: {
    replied: '{{author}} ответил(а) на ваше обращение «{{title}}»:',
    repliedUnproved:
      '{{author}} ответил(а) на обращение №{{id}}, в котором указан этот адрес электронной почты:',
    replySubject: 'Обращение №{{id}}',
    answer: 'Чтобы ответить, ответьте на это письмо.',
    files: 'Приложенные файлы:',
    read: 'Вся переписка и ответ на неё — здесь:',
    received: 'Мы получили ваше обращение «{{title}}». Служба поддержки ответит вам по email.',
    follow: 'Следить за ним и дополнить его можно здесь:',
    receivedSubject: 'Обращение №{{id}} получено',
    receivedUnproved:
      'Мы получили обращение в службу поддержки, в котором указан этот адрес электронной почты.',
    followUnproved: 'Если это были вы, прочитать его, следить за ним и дополнить его можно здесь:',
    notYou: 'Если это были не вы, не обращайте внимания на это письмо.',
  },
  'pt-BR': {
    replied: '{{author}} respondeu à sua solicitação “{{title}}”:',
    repliedUnproved: '{{author}} respondeu à solicitação nº {{id}}, que informou este endereço de e-mail:',
    replySubject: 'Solicitação nº {{id}}',
    answer: 'Para responder, responda a este e-mail.',
    files: 'Arquivos anexados:',
    read: 'Leia a conversa completa e responda aqui:',
    received: 'Recebemos sua solicitação “{{title}}”. Nossa equipe de suporte responderá por e-mail.',
    follow: 'Acompanhe e complemente aqui:',
    receivedSubject: 'Solicitação nº {{id}} recebida',
    receivedUnproved: 'Recebemos uma solicitação de suporte que informou este endereço de e-mail.',
    followUnproved: 'Se foi você, leia, acompanhe e complemente a solicitação aqui:',
    notYou: 'Se não foi você, ignore este e-mail.',
  },
  it: {
    replied: '{{author}} ha risposto alla sua richiesta “{{title}}”:',
    repliedUnproved: '{{author}} ha risposto alla richiesta n. {{id}}, che indica questo indirizzo email:',
    replySubject: 'Richiesta n. {{id}}',
    answer: 'Per rispondere, risponda a questa email.',
    files: 'File allegati:',
    read: 'Legga tutta la conversazione e risponda qui:',
    received:
      'Abbiamo ricevuto la sua richiesta “{{title}}”. Il nostro team di supporto le risponderà via email.',
    follow: 'La segua e la integri qui:',
    receivedSubject: 'Richiesta n. {{id}} ricevuta',
    receivedUnproved: 'Abbiamo ricevuto una richiesta di assistenza che indica questo indirizzo email.',
    followUnproved: 'Se è stato lei, può leggerla, seguirla e integrarla qui:',
    notYou: 'Se non è stato lei, ignori questa email.',
  },
  sk: {
    replied: '{{author}} odpovedal(a) na vašu požiadavku „{{title}}“:',
    repliedUnproved:
      '{{author}} odpovedal(a) na požiadavku č. {{id}}, v ktorej bola uvedená táto e-mailová adresa:',
    replySubject: 'Požiadavka č. {{id}}',
    answer: 'Ak chcete odpovedať, odpovedzte na tento e-mail.',
    files: 'Priložené súbory:',
    read: 'Celú konverzáciu si prečítate a odpoviete na ňu tu:',
    received: 'Dostali sme vašu požiadavku „{{title}}“. Náš tím podpory vám odpovie e-mailom.',
    follow: 'Sledovať a doplniť ju môžete tu:',
    receivedSubject: 'Požiadavka č. {{id}} prijatá',
    receivedUnproved: 'Dostali sme požiadavku na podporu, v ktorej bola uvedená táto e-mailová adresa.',
    followUnproved: 'Ak ste to boli vy, môžete si ju prečítať, sledovať a doplniť tu:',
    notYou: 'Ak ste to neboli vy, tento e-mail ignorujte.',
  },
} satisfies Record<Language, Record<string, string>>;

const textsOf = (lang: string) => TEXTS[lang as Language] ?? TEXTS.en;

const introOf = (ticket: TicketRow, message: TicketMessageRow) => {
  const texts = textsOf(ticket.lang);
  // Functions, not strings, as replacements: a `$&` in a name or title stays as written.
  return (awaitsOwner(ticket) ? texts.repliedUnproved : texts.replied)
    .replace('{{author}}', () => message.author_name)
    .replace('{{id}}', String(ticket.id))
    .replace('{{title}}', () => ticket.title);
};

/**
 * What the requester's copy of a reply is called, and who it is to. While the request's address waits for its owner
 * to take it up, its title and name are whoever typed the address's: the request's number and the bare address, as
 * the receipt has them (neutralReceivedEmail).
 */
export function replyEnvelope(ticket: TicketRow): {
  subject: string;
  to: string | { name: string; address: string };
} {
  if (awaitsOwner(ticket))
    return {
      subject: `Re: ${textsOf(ticket.lang).replySubject.replace('{{id}}', String(ticket.id))}`,
      to: ticket.email,
    };
  return { subject: `Re: ${ticket.title}`, to: { name: ticket.name, address: ticket.email } };
}

/**
 * The reply, then the conversation's page in the portal (its private link when the request has no account; none
 * with an external portal). Answering by mail reaches the team when SUPPORT_EMAIL is the Reply-To.
 *
 * The HTML says the same beside the text (mail clients show the one they prefer): the message as stored, already
 * sanitised and safe to place in a page, so its formatting and links survive; everything around it escaped.
 */
export function replyEmail(
  ticket: TicketRow,
  message: TicketMessageRow,
  files: FileRow[],
  answerByMail: boolean,
  threadLink: string | null = null,
): { text: string; html: string } {
  const texts = textsOf(ticket.lang);
  const intro = introOf(ticket, message);
  const lines = [intro, '', message.body_text, ''];
  const parts = [`<p>${escapeHtml(intro)}</p>`, `<div>${message.body_html}</div>`];
  if (files.length > 0) {
    lines.push(texts.files, ...files.map((file) => `- ${file.original_name}`), '');
    parts.push(
      `<p>${escapeHtml(texts.files)}</p>`,
      `<ul>${files.map((file) => `<li>${escapeHtml(file.original_name)}</li>`).join('')}</ul>`,
    );
  }
  if (threadLink) {
    lines.push(texts.read, threadLink, '');
    parts.push(
      `<p>${escapeHtml(texts.read)} <a href="${escapeHtml(threadLink)}">${escapeHtml(threadLink)}</a></p>`,
    );
  }
  if (answerByMail) {
    lines.push(texts.answer);
    parts.push(`<p>${escapeHtml(texts.answer)}</p>`);
  }
  return {
    text: `${lines.join('\n')}\n`,
    html: `<!doctype html><html lang="${escapeHtml(ticket.lang)}"><body>${parts.join('\n')}</body></html>\n`,
  };
}

/** What the requester reads once a request is stored: that it arrived, where to follow it, and what they wrote. */
export function receivedEmailText(ticket: TicketRow, threadLink: string): string {
  const texts = textsOf(ticket.lang);
  const lines = [
    texts.received.replace('{{title}}', () => ticket.title),
    '',
    texts.follow,
    threadLink,
    '',
    '---',
    ticket.description,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The receipt to an address its sender did not prove: that a request gave it, where to read it, and to ignore it
 * otherwise. Nothing of the sender's (name, title, text) is in it, so it carries no stranger's words to the address.
 */
export function neutralReceivedEmail(
  ticket: TicketRow,
  threadLink: string,
): { subject: string; text: string } {
  const texts = textsOf(ticket.lang);
  const lines = [texts.receivedUnproved, '', texts.followUnproved, threadLink, '', texts.notYou];
  return {
    subject: texts.receivedSubject.replace('{{id}}', String(ticket.id)),
    text: `${lines.join('\n')}\n`,
  };
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

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function emailText(ticket: TicketRow, files: FileRow[]): string {
  const lines = [
    `Ticket #${ticket.id}`,
    `From: ${ticket.name} <${ticket.email}>`,
    `Channel: ${ticket.channel}`,
    `Language: ${ticket.lang}`,
    `Created: ${new Date(Number(ticket.created_at)).toISOString()}`,
    '',
    ticket.description,
  ];
  if (files.length > 0) {
    lines.push('', 'Attached files:');
    for (const file of files) lines.push(`- ${file.original_name} (${formatSize(Number(file.size))})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A new request, mailed to the support address or to the team, with the visitor as Reply-To so answering reaches
 * them, and the request's page in the admin app.
 */
export function requestEmail(
  ctx: AppContext,
  ticket: TicketRow,
  files: FileRow[],
  to: string[],
): OutgoingMail {
  return {
    to,
    replyTo: { name: ticket.name, address: ticket.email },
    subject: ticket.title,
    text: `${emailText(ticket, files)}\nAnswer in the admin app: ${ctx.config.publicUrl}/admin/requests/${ticket.id}\n`,
    messageId: messageIdOf(ticket.id),
  };
}
