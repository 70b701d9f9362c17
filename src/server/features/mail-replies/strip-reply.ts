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
  /^Le\b.{4,}\ba écrit\s*:$/i, // fr: Le lun. 3 juin 2024 à 10:00, Anne <...> a écrit :
  /^El\b.{4,}\bescribió:$/i, // es: El lun, 3 jun 2024 a las 10:00, Ana (<...>) escribió:
];

/** Outlook's separator line, in the same languages. */
const ORIGINAL_MESSAGE =
  /^-{2,}\s*(Original Message|Исходное сообщение|Mensagem original|Messaggio originale|Pôvodná správa|Ursprüngliche Nachricht|Message d'origine|Mensaje original)\s*-{2,}$/i;

/** Outlook's header block: a From line, then a Sent or Date line within the next few. */
const HEADER_FROM = /^\*?(From|От|Od|De|Da|Von)\s*:\*?\s/i;
const HEADER_SENT =
  /^\*?(Sent|Date|Отправлено|Дата|Enviada em|Enviado|Data|Inviato|Odoslané|Dátum|Gesendet|Datum|Envoyé|Fecha)\s*:/i;

/** A signature starts at "-- " (the space is often lost on the way). */
const SIGNATURE = /^--\s?$/;

const isAttribution = (line: string) => ATTRIBUTIONS.some((pattern) => pattern.test(line.trim()));

function endOfAnswer(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (SIGNATURE.test(line) || ORIGINAL_MESSAGE.test(trimmed)) return i;
    if (isAttribution(line)) return i;
    // An attribution wrapped by the client: "On Mon, ... Ann" / "<ann@example.com> wrote:".
    // A next line that is an attribution on its own ends the answer there instead, keeping this one.
    const next = lines[i + 1];
    if (trimmed && next !== undefined && !isAttribution(next) && isAttribution(`${trimmed} ${next.trim()}`))
      return i;
    if (HEADER_FROM.test(trimmed) && lines.slice(i + 1, i + 4).some((l) => HEADER_SENT.test(l.trim())))
      return i;
  }
  return lines.length;
}

/** The answer alone: quoted lines and everything from the first attribution or signature on are gone. */
export function stripReply(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const answer = lines
    .slice(0, endOfAnswer(lines))
    .filter((line) => !/^\s*>/.test(line))
    .map((line) => line.replace(/\s+$/, ''));
  return answer
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
