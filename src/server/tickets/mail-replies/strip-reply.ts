import { ElementType, parseDocument } from 'htmlparser2';

/**
 * What a customer wrote in an answer by mail, without what their mail client added below it: the mail they answer
 * (quoted with `>`, or under an attribution line, or under Outlook's header block) and their signature.
 *
 * Attribution lines in the product's languages (en, ru, pt-BR, it, sk) and the other common ones (de, fr, es), as
 * the usual clients write them; a line of these is the end of the answer, even when a long one wraps onto the next.
 */
const ATTRIBUTIONS: RegExp[] = [
  /^On\b.{4,}\bwrote:$/i, // en: On Mon, 3 Jun 2024 at 10:00, Ann <ann@example.com> wrote:
  /^.{4,}\s(писал|написал|написала|написал\(а\)|пишет)\s*:$/i, // ru: 3 июня 2024 г., в 10:00, Анна <...> написал(а):
  /^\d{1,2}\.\d{1,2}\.\d{4},\s+\d{1,2}:\d{2},\s+.*<[^<>\s]+@[^<>\s]+>:$/, // ru (Yandex): 03.06.2024, 10:00, "Анна" <...>:
  /^\S{2,3},\s+\d{1,2}\s+\S+\s+\d{4}\s+г\.\s+в\s+\d{1,2}:\d{2}.*:$/i, // ru (Gmail): пн, 3 июн. 2024 г. в 10:00, Анна <...>:
  /^Em\b.{4,}\bescreveu:$/i, // pt-BR: Em seg., 3 de jun. de 2024 às 10:00, Ana <...> escreveu:
  /^Il\b.{4,}\bha scritto:$/i, // it: Il giorno lun 3 giu 2024 alle ore 10:00 Anna <...> ha scritto:
  /^(Dňa\b)?.{4,}\bnapísal(a|\(a\))?:$/i, // sk: Dňa po 3. 6. 2024 o 10:00 Anna <...> napísal(a):
  /^Am\b.{4,}\bschrieb\b.*:$/i, // de: Am Mo., 3. Juni 2024 um 10:00 Uhr schrieb Anna <...>:
  /^Le\b.{4,}\ba\s+écrit\s*:$/i, // fr: Le lun. 3 juin 2024 à 10:00, Anne <...> a écrit :
  /^El\b.{4,}\bescribió:$/i, // es: El lun, 3 jun 2024 a las 10:00, Ana (<...>) escribió:
];

/** Outlook's separator line, in the same languages, and the lines that open a forwarded mail. */
const ORIGINAL_MESSAGE =
  /^-{2,}\s*(Original Message|Исходное сообщение|Mensagem original|Messaggio originale|Pôvodná správa|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Forwarded message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado)\s*-{2,}$/i;
const FORWARDED =
  /^(Begin forwarded message|Anfang der weitergeleiteten Nachricht|Début du message réexpédié)\s*:$/i;

/** Outlook's header block: a From line, then a Sent or Date line within the next few. */
const HEADER_FROM = /^\*?(From|От|Od|De|Da|Von)\s*:\*?\s/i;
const HEADER_SENT =
  /^\*?(Sent|Date|Отправлено|Дата|Enviada em|Enviado|Data|Inviato|Odoslané|Dátum|Gesendet|Datum|Envoyé|Fecha)\s*:/i;

/** A signature starts at "-- " (the space is often lost on the way). */
const SIGNATURE = /^--\s?$/;

/** What phones put below an answer on their own, as its last line. */
const MOBILE_SIGNATURE =
  /^(Sent from my \w+( \w+)?|Get Outlook for (iOS|Android)|Von meinem \w+ gesendet|Envoyé de mon \w+|Enviado desde mi \w+)\.?$/i;

const isAttribution = (line: string) => ATTRIBUTIONS.some((pattern) => pattern.test(line.trim()));
const isQuoted = (line: string) => /^\s*>/.test(line);

/** A line of a mail, and whether it is quote: by its `>` in plain text, by the element it sits in in HTML. */
interface Line {
  text: string;
  quoted: boolean;
}

/**
 * Where the answer that starts at `from` ends, and how many lines the attribution that ends it takes (none when
 * something else ends it): below an attribution, the customer may have answered under the quote. Only the lines
 * that are not quote can end it.
 */
function endOfAnswer(lines: Line[], from: number): { end: number; attribution: number } {
  for (let i = from; i < lines.length; i++) {
    const { text: line, quoted } = lines[i]!;
    if (quoted) continue;
    const trimmed = line.trim();
    if (SIGNATURE.test(line) || ORIGINAL_MESSAGE.test(trimmed) || FORWARDED.test(trimmed))
      return { end: i, attribution: 0 };
    if (isAttribution(line)) return { end: i, attribution: 1 };
    // An attribution wrapped by the client: "On Mon, ... Ann" / "<ann@example.com> wrote:".
    // A next line that is an attribution on its own ends the answer there instead, keeping this one.
    const next = lines[i + 1];
    if (
      trimmed &&
      next !== undefined &&
      !next.quoted &&
      !isAttribution(next.text) &&
      isAttribution(`${trimmed} ${next.text.trim()}`)
    )
      return { end: i, attribution: 2 };
    if (
      HEADER_FROM.test(trimmed) &&
      lines.slice(i + 1, i + 4).some((l) => !l.quoted && HEADER_SENT.test(l.text.trim()))
    )
      return { end: i, attribution: 0 };
  }
  return { end: lines.length, attribution: 0 };
}

const tidy = (lines: string[]) =>
  lines
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * The answer alone: quoted lines and everything from the first attribution or signature on are gone. Nothing above
 * an attribution but a quoted mail below it: the customer answered below the quote (or between its lines), and the
 * answer is what follows that is not quoted, read by the same rules.
 */
function answerOfLines(lines: Line[]): string {
  for (let from = 0; ;) {
    const { end, attribution } = endOfAnswer(lines, from);
    const answer = lines
      .slice(from, end)
      .filter((line) => !line.quoted)
      .map((line) => line.text);
    while (answer.length > 0 && (!answer.at(-1)!.trim() || MOBILE_SIGNATURE.test(answer.at(-1)!.trim())))
      answer.pop();
    const kept = tidy(answer);
    if (kept || attribution === 0) return kept;
    from = end + attribution;
    let first = from;
    while (first < lines.length && !lines[first]!.quoted && !lines[first]!.text.trim()) first++;
    if (first === lines.length || !lines[first]!.quoted) return '';
  }
}

/** The answer in a plain-text mail: its quote is the lines that start with `>`. */
export function stripReply(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return answerOfLines(lines.map((line) => ({ text: line, quoted: isQuoted(line) })));
}

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;

/** Never text: what a document's head holds, scripts, Word's `<xml>`, embedded objects. (Comments are never read.) */
const UNSHOWN = new Set([
  'title',
  'style',
  'script',
  'meta',
  'link',
  'base',
  'xml',
  'template',
  'noscript',
  'object',
  'iframe',
  'svg',
  'math',
]);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'head',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);
const PARAGRAPHS = new Set(['p', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table']);

/**
 * What clients wrap a quoted mail (or the signature they add) in; all of it is quote. Gmail (its attribution
 * gmail_attr, gmail_signature; its quote is a blockquote), Yahoo (yahoo_quoted), Thunderbird (moz-cite-prefix,
 * moz-signature), Proton (protonmail_quote), Outlook for Mac and new Outlook (mail-editor-reference-message-container),
 * Outlook's signatures (Signature, ms-outlook-mobile-signature).
 */
const QUOTE_CLASSES = [
  'gmail_attr',
  'gmail_signature',
  'yahoo_quoted',
  'moz-cite-prefix',
  'moz-signature',
  'protonmail_quote',
];
const QUOTE_IDS = /^(x_)?(mail-editor-reference-message-container|Signature|ms-outlook-mobile-signature)$/i;
/** Outlook's marks where the quoted mail starts: everything from them on is quote (Outlook answers above it). */
const QUOTE_START_IDS = /^(x_)?(divRplyFwdMsg|appendonsend|stopSpelling)$/i;

const classesOf = (element: HtmlElement) => (element.attribs.class ?? '').toLowerCase().split(/\s+/);
const styleOf = (element: HtmlElement) => (element.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
const isElement = (node: HtmlNode): node is HtmlElement => 'attribs' in node && ElementType.isTag(node);

function isQuoteElement(element: HtmlElement): boolean {
  const classes = classesOf(element);
  if (QUOTE_CLASSES.some((name) => classes.includes(name))) return true;
  if (QUOTE_IDS.test(element.attribs.id ?? '')) return true;
  if (element.name !== 'blockquote') return false;
  // Gmail's and Apple Mail's "indent" is a blockquote too, without a border: the customer's own text.
  const indent = element.attribs.type?.toLowerCase() !== 'cite' && /(^|;)border:none/.test(styleOf(element));
  return !indent;
}

/**
 * Gmail's quote container (div.gmail_quote, div.gmail_quote_container) holds the attribution and the quote, and
 * whatever the customer writes below the quote or between its parts: how many of its children, from the first, are
 * quote. Up to its first quote blockquote (the attribution, whatever its shape or language); all of them when it
 * holds none (a forwarded mail, shown under its header without a blockquote). Not a container: none.
 */
function quotedHeadOfGmailContainer(element: HtmlElement): number {
  if (element.name.toLowerCase() === 'blockquote') return 0;
  const classes = classesOf(element);
  if (!classes.includes('gmail_quote') && !classes.includes('gmail_quote_container')) return 0;
  const children = element.children as HtmlNode[];
  const quote = children.findIndex(
    (child) => isElement(child) && child.name.toLowerCase() === 'blockquote' && isQuoteElement(child),
  );
  return quote === -1 ? children.length : quote + 1;
}

const isHidden = (element: HtmlElement) => /(^|;)(display:none|mso-hide:all)/.test(styleOf(element));

/** Elements deeper than this are not read: no client nests so deep, and a mail that does must not end the pass. */
const NESTING_LIMIT = 1000;
/**
 * Tags read from a mail's HTML: many times what an answer sits under, and few enough that a mail made of nothing
 * but nested tags is still read quickly (the parser's work grows with the square of the nesting). What lies past
 * them is quote; a customer who answered below that much quote still has the text part read.
 */
const HTML_TAGS_READ = 20_000;

function readablePart(html: string): string {
  let tags = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1))
    if (++tags > HTML_TAGS_READ) return html.slice(0, at);
  return html;
}

/**
 * The mail's HTML as the text it shows, line by line, its quoted parts marked. Every element is walked, whatever
 * the document's shape: a whole `<html>` document inside a blockquote, a document inside another, several bodies,
 * or none; so no part of the mail is left out for being in the wrong place.
 */
function htmlLines(html: string): Line[] {
  const lines: Line[] = [];
  let line = '';
  let quoteDepth = 0;
  let quoteStarted = false;
  let preformatted = 0;
  const quoted = () => quoteDepth > 0 || quoteStarted;
  const newLine = () => {
    lines.push({ text: line, quoted: quoted() });
    line = '';
  };
  // A paragraph of a no-break space alone is how Word and Outlook write an empty line.
  const endBlock = () => {
    if (line.trim()) newLine();
    else if (line.includes('\u00a0')) lines.push({ text: '', quoted: quoted() });
    line = '';
  };
  const blankLine = () => {
    endBlock();
    const last = lines.at(-1);
    if (last && (last.text.trim() || last.quoted !== quoted())) lines.push({ text: '', quoted: quoted() });
  };

  const walk = (nodes: HtmlNode[], depth: number, listItems?: { ordered: boolean; next: number }) => {
    if (depth > NESTING_LIMIT) return;
    for (const node of nodes) {
      if (node.type === ElementType.Text) {
        if (preformatted === 0) line += node.data.replace(/[ \t\r\n\f]+/g, ' ');
        else
          node.data.split(/\r\n?|\n/).forEach((part, i) => {
            if (i > 0) newLine();
            line += part;
          });
        continue;
      }
      if (!isElement(node)) continue;
      const element = node;
      const name = element.name.toLowerCase();
      if (UNSHOWN.has(name) || isHidden(element)) continue;
      // Inside a quote, such a mark belongs to an older mail quoted there: what follows the quote is not quote.
      if (quoteDepth === 0 && QUOTE_START_IDS.test(element.attribs.id ?? '')) {
        endBlock();
        quoteStarted = true;
      }
      if (name === 'br') {
        newLine();
        continue;
      }
      const quote = isQuoteElement(element);
      // Word's paragraphs (MsoNormal...) have no margins: its empty lines are paragraphs of a no-break space.
      const paragraph = PARAGRAPHS.has(name) && !classesOf(element).some((c) => c.startsWith('mso'));
      const block = quote || BLOCKS.has(name) || PARAGRAPHS.has(name);
      if (paragraph) blankLine();
      else if (block) endBlock();
      if (quote) quoteDepth++;
      if (name === 'li' && listItems) line += listItems.ordered ? `${listItems.next++}. ` : '- ';
      if ((name === 'td' || name === 'th') && line.trim()) line += ' ';
      const items = name === 'ol' || name === 'ul' ? { ordered: name === 'ol', next: 1 } : listItems;
      if (name === 'pre') preformatted++;
      const children = element.children as HtmlNode[];
      const quotedHead = quotedHeadOfGmailContainer(element);
      if (quotedHead > 0) {
        quoteDepth++;
        walk(children.slice(0, quotedHead), depth + 1, items);
        endBlock();
        quoteDepth--;
      }
      walk(children.slice(quotedHead), depth + 1, items);
      if (name === 'pre') preformatted--;
      if (name === 'a') {
        const href = (element.attribs.href ?? '').trim();
        const shown = line.trim();
        if (/^https?:\/\//i.test(href) && !shown.endsWith(href)) line += ` [${href}]`;
      }
      if (paragraph) blankLine();
      else if (block) endBlock();
      if (quote) quoteDepth--;
    }
  };
  walk(parseDocument(readablePart(html), { decodeEntities: true }).children as HtmlNode[], 0);
  endBlock();
  return lines.map((l) => ({ text: l.text.replace(/[ \u00a0]+/g, ' ').trim(), quoted: l.quoted }));
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether a word holds our own private link to a request (`<PUBLIC_URL>/issues/<id>?key=…`), also as a link checker
 * wraps it (percent-encoded in its own URL): whoever reads the thread must not find the key to it there. Ours is
 * known by the public URL's host (and port) and path, in any case and with any scheme; the same path on another
 * host (the customer's own tracker) is the customer's. Plain searches, not one pattern that could backtrack over a
 * long word.
 */
function privateLinkTest(publicUrl: string): (word: string) => boolean {
  const url = new URL(publicUrl);
  const issues = `${url.host}${url.pathname.replace(/\/+$/, '')}/issues/`.replace(
    /[.*+?^${}()|[\]\\]/g,
    '\\$&',
  );
  // Not preceded by what continues a host name: help.example.com.evil.example and evilhelp.example.com are others'.
  const ours = new RegExp(`(?<![\\w.-])${issues}\\d`, 'i');
  const isPrivateLinkText = (text: string) => ours.test(text) && /[?&]key=[A-Za-z0-9_-]{16}/.test(text);
  return (word) => {
    let text = word;
    for (let i = 0; i < 3; i++) {
      if (isPrivateLinkText(text)) return true;
      try {
        const decoded = decodeURIComponent(text);
        if (decoded === text) return false;
        text = decoded;
      } catch {
        return false;
      }
    }
    return isPrivateLinkText(text);
  };
}

function withoutPrivateLinks(text: string, publicUrl: string): string {
  const isPrivateLink = privateLinkTest(publicUrl);
  return tidy(
    text.split('\n').map((line) => {
      const kept = line.replace(/[^\S\n]*\S+/g, (word) => (isPrivateLink(word) ? '' : word));
      return kept === line ? line : kept.trim();
    }),
  );
}

/**
 * What a customer wrote in a mail: from its HTML when it has one (its structure marks the quote better than any
 * text), else from its text. Never only the quote, and never our private link:
 * - an HTML answer is the whole mail less its quoted parts (by its markup alone; then the rules of plain text for
 *   attributions, header blocks and signatures), wherever in the markup the answer sits;
 * - an HTML that holds nothing but the quote gives the text part's answer only if that is not a rendering of the
 *   quote (a mail parser writes the text of an HTML-only mail from its HTML, quote and all);
 * - our private link to a request (under `publicUrl`, the help centre's PUBLIC_URL) is taken out of whatever is kept.
 */
export function answerOfMail(
  mail: { text?: string | null; html?: string | false | null },
  publicUrl: string,
): string {
  const text = mail.text ?? '';
  if (!mail.html || !mail.html.trim()) return withoutPrivateLinks(stripReply(text), publicUrl);
  const rendered = htmlLines(mail.html);
  // Where the markup has quote, it alone says which lines are: a line of the customer's own that starts with `>` is
  // theirs. Markup without any (plain text a gateway or an old client turned into HTML) quotes as plain text does.
  const lines = rendered.some((line) => line.quoted)
    ? rendered
    : rendered.map((line) => ({ text: line.text, quoted: isQuoted(line.text) }));
  const fromHtml = answerOfLines(lines);
  if (fromHtml) return withoutPrivateLinks(fromHtml, publicUrl);
  const fromText = stripReply(text);
  // The HTML kept nothing: all it shows is quote, by its elements or by the rules of text (an unquoted header block
  // and the mail below it). A text part of nothing but those words is the parser's rendering of it, whose lines may
  // no longer fit the rules; words of its own are an answer the HTML does not show.
  const shown = new Set(wordsOf(lines.map((l) => l.text).join('\n')));
  const onlyQuote = wordsOf(fromText).every((word) => shown.has(word));
  return onlyQuote ? '' : withoutPrivateLinks(fromText, publicUrl);
}
