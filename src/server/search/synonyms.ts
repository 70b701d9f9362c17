import { SYNONYM_PHRASE_WORDS_MAX, type SynonymSets } from '../../shared/api/synonyms.ts';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { readSetting, writeSetting } from '../settings/settings.repository.ts';
import type { FieldError } from '../../shared/api/common.ts';
import { analyse, fold, words } from './analysis.ts';

/**
 * What Signpost ships: the words people use for the same things in any help centre (signing in, paying, deleting,
 * errors, devices), in each interface language. Written as general vocabulary before the relevance set's compound and
 * paraphrase queries were read, and never tuned to them, so those queries measure something. The team may remove or
 * change any of it; then their sets are used, even if empty.
 */
export const DEFAULT_SYNONYMS: SynonymSets = {
  en: [
    ['sign in', 'log in', 'log on'],
    ['sign out', 'log out', 'log off'],
    ['sign up', 'register', 'create an account'],
    ['password', 'passcode', 'passphrase'],
    ['delete', 'remove', 'erase'],
    ['change', 'edit', 'modify'],
    ['error', 'fault', 'failure'],
    ['problem', 'trouble'],
    ['broken', 'not working', 'does not work', 'fails'],
    ['invoice', 'bill', 'receipt'],
    ['refund', 'reimbursement', 'repayment'],
    ['subscription', 'plan'],
    ['cancel', 'terminate', 'discontinue'],
    ['price', 'cost', 'fee', 'pricing'],
    ['phone', 'mobile', 'smartphone', 'cellphone'],
    ['app', 'application'],
    ['notification', 'alert'],
    ['settings', 'preferences', 'options'],
    ['customer', 'client', 'buyer'],
    ['email', 'mail'],
    ['attachment', 'attached file'],
    ['two-factor authentication', '2fa', 'two-step verification', 'mfa'],
    ['shortcut', 'hotkey', 'key combination'],
    ['screen', 'display', 'monitor'],
  ],
  ru: [
    ['войти', 'вход', 'залогиниться', 'авторизоваться', 'авторизация'],
    ['выйти', 'выход', 'разлогиниться'],
    ['зарегистрироваться', 'регистрация', 'создать аккаунт'],
    ['аккаунт', 'учётная запись', 'учетка'],
    ['удалить', 'стереть', 'убрать'],
    ['изменить', 'поменять', 'редактировать', 'отредактировать'],
    ['ошибка', 'сбой', 'баг'],
    ['не работает', 'сломалось', 'не получается'],
    ['оплата', 'платёж'],
    ['счёт', 'инвойс', 'квитанция'],
    ['возврат', 'возмещение', 'рефанд'],
    ['подписка', 'тариф'],
    ['отменить', 'отказаться', 'прекратить'],
    ['цена', 'стоимость', 'тариф'],
    ['телефон', 'смартфон', 'мобильный'],
    ['приложение', 'программа', 'апп'],
    ['уведомление', 'оповещение'],
    ['настройки', 'параметры'],
    ['клиент', 'заказчик', 'покупатель'],
    ['почта', 'email', 'электронная почта', 'имейл'],
    ['вложение', 'прикреплённый файл'],
    ['двухфакторная аутентификация', '2fa', 'двухэтапная проверка'],
    ['экран', 'дисплей', 'монитор'],
  ],
  'pt-BR': [
    ['entrar', 'login', 'fazer login', 'acessar'],
    ['sair', 'logout', 'deslogar'],
    ['cadastrar', 'cadastro', 'registrar', 'criar conta'],
    ['senha', 'password'],
    ['excluir', 'apagar', 'remover', 'deletar'],
    ['alterar', 'mudar', 'editar', 'trocar'],
    ['erro', 'falha', 'bug'],
    ['não funciona', 'travou', 'parou de funcionar'],
    ['pagamento', 'cobrança'],
    ['fatura', 'boleto', 'recibo', 'nota fiscal'],
    ['reembolso', 'estorno', 'devolução'],
    ['assinatura', 'plano'],
    ['cancelar', 'encerrar', 'desistir'],
    ['preço', 'valor', 'custo', 'tarifa'],
    ['celular', 'telefone', 'smartphone'],
    ['aplicativo', 'app'],
    ['notificação', 'alerta', 'aviso'],
    ['configurações', 'preferências', 'ajustes'],
    ['cliente', 'consumidor', 'comprador'],
    ['email', 'correio eletrônico'],
    ['anexo', 'arquivo anexado'],
    ['autenticação de dois fatores', '2fa', 'verificação em duas etapas'],
    ['tela', 'monitor', 'display'],
  ],
  it: [
    ['accedere', 'accesso', 'login', 'entrare'],
    ['uscire', 'disconnettersi', 'logout'],
    ['registrarsi', 'registrazione', 'iscriversi', 'creare un account'],
    ['password', 'parola d’ordine', 'codice di accesso'],
    ['eliminare', 'cancellare', 'rimuovere'],
    ['modificare', 'cambiare'],
    ['errore', 'guasto', 'malfunzionamento'],
    ['non funziona', 'bloccato', 'si blocca'],
    ['pagamento', 'addebito'],
    ['fattura', 'ricevuta'],
    ['rimborso', 'restituzione'],
    ['abbonamento', 'piano'],
    ['disdire', 'annullare', 'disdetta'],
    ['prezzo', 'costo', 'tariffa'],
    ['cellulare', 'telefono', 'smartphone'],
    ['app', 'applicazione'],
    ['notifica', 'avviso'],
    ['impostazioni', 'preferenze'],
    ['cliente', 'acquirente'],
    ['email', 'posta elettronica'],
    ['allegato', 'file allegato'],
    ['autenticazione a due fattori', '2fa', 'verifica in due passaggi'],
    ['schermo', 'display', 'monitor'],
  ],
  sk: [
    ['prihlásiť', 'prihlásenie', 'login'],
    ['odhlásiť', 'odhlásenie', 'logout'],
    ['registrácia', 'zaregistrovať', 'vytvoriť účet'],
    ['heslo', 'prístupový kód'],
    ['vymazať', 'odstrániť', 'zmazať'],
    ['zmeniť', 'upraviť'],
    ['chyba', 'porucha', 'problém'],
    ['nefunguje', 'pokazené', 'zaseklo sa'],
    ['platba', 'úhrada'],
    ['faktúra', 'účtenka', 'doklad'],
    ['vrátenie peňazí', 'refundácia'],
    ['predplatné', 'tarif', 'plán'],
    ['zrušiť', 'ukončiť'],
    ['cena', 'poplatok'],
    ['mobil', 'telefón', 'smartfón'],
    ['aplikácia', 'appka'],
    ['upozornenie', 'notifikácia'],
    ['nastavenia', 'predvoľby'],
    ['zákazník', 'klient'],
    ['email', 'mail', 'elektronická pošta'],
    ['príloha', 'priložený súbor'],
    ['dvojfaktorové overenie', '2fa', 'dvojstupňové overenie'],
    ['obrazovka', 'displej', 'monitor'],
  ],
};

/**
 * The sets as the team meant them: phrases trimmed and spaced once, repeats within a set dropped. A phrase without a
 * word, a phrase of too many words, or a set left with fewer than two phrases is refused, naming its place.
 */
export function tidySynonyms(sets: SynonymSets): SynonymSets {
  const errors: FieldError[] = [];
  const tidy: SynonymSets = {};
  for (const lang of LANGUAGES) {
    const list = sets[lang];
    if (!list) continue;
    tidy[lang] = list.map((set, s) => {
      const seen = new Set<string>();
      const phrases: string[] = [];
      set.forEach((raw, p) => {
        const phrase = raw.trim().replace(/\s+/g, ' ');
        const count = words(phrase).length;
        if (count === 0) errors.push({ field: `sets.${lang}[${s}][${p}]`, message: 'must contain a word' });
        else if (count > SYNONYM_PHRASE_WORDS_MAX)
          errors.push({
            field: `sets.${lang}[${s}][${p}]`,
            message: `must be at most ${SYNONYM_PHRASE_WORDS_MAX} words`,
          });
        const key = fold(phrase);
        if (seen.has(key)) return;
        seen.add(key);
        phrases.push(phrase);
      });
      if (phrases.length < 2)
        errors.push({ field: `sets.${lang}[${s}]`, message: 'must list at least two different phrases' });
      return phrases;
    });
  }
  if (errors.length) {
    const first = errors[0] as FieldError;
    throw new ApiError(400, 'invalid_request', `${first.field} ${first.message}`, errors);
  }
  return tidy;
}

/** One way of saying a thing, as a query may contain it: its words' stems in the set's language. */
interface Phrase {
  stems: string[];
  /** The other ways, as words to look for. */
  others: string[][];
}

/**
 * Sets ready for queries: per language, phrases by their first stem. A multi-word phrase is also found written as
 * one word ('log in' in 'login'), as the index finds words however they are joined.
 */
export interface SynonymTable {
  byLanguage: Map<Language, Map<string, Phrase[]>>;
}

export const NO_SYNONYMS: SynonymTable = { byLanguage: new Map() };

export function compileSynonyms(sets: SynonymSets): SynonymTable {
  const byLanguage = new Map<Language, Map<string, Phrase[]>>();
  for (const lang of LANGUAGES) {
    const list = sets[lang];
    if (!list?.length) continue;
    const phrases = new Map<string, Phrase[]>();
    const add = (stems: string[], others: string[][]) => {
      const first = stems[0];
      if (first === undefined) return;
      const known = phrases.get(first) ?? [];
      if (known.some((p) => p.stems.join(' ') === stems.join(' '))) {
        const same = known.find((p) => p.stems.join(' ') === stems.join(' ')) as Phrase;
        same.others.push(...others);
      } else known.push({ stems, others });
      phrases.set(first, known);
    };
    for (const set of list) {
      const spelled = set.map((phrase) => words(phrase).map((w) => w.word));
      spelled.forEach((phrase, i) => {
        const others = spelled.filter((_, j) => j !== i);
        add(
          phrase.map((word) => analyse(word, lang)),
          others,
        );
        if (phrase.length > 1) add([analyse(phrase.join(''), lang)], others);
      });
    }
    byLanguage.set(lang, phrases);
  }
  return { byLanguage };
}

/** A phrase found in a query: which of its words (by place) it covers, and the other ways of saying it. */
export interface SynonymMatch {
  from: number;
  to: number;
  others: string[][];
}

/** The phrases of the table found in the query's words, longest first where they overlap at the same place. */
export function findSynonyms(table: SynonymTable, queryWords: string[]): SynonymMatch[] {
  const found: SynonymMatch[] = [];
  for (const [lang, phrases] of table.byLanguage) {
    const stems = queryWords.map((word) => analyse(word, lang));
    stems.forEach((stem, at) => {
      const candidates = phrases.get(stem);
      if (!candidates) return;
      const matching = candidates
        .filter((phrase) => phrase.stems.every((s, k) => stems[at + k] === s))
        .sort((a, b) => b.stems.length - a.stems.length);
      for (const phrase of matching)
        found.push({ from: at, to: at + phrase.stems.length, others: phrase.others });
    });
  }
  return found;
}

const SETTING = 'search_synonyms';

/** The team's sets, or the shipped ones while the team has saved none. */
export async function readSynonyms(db: Executor): Promise<{ sets: SynonymSets; defaults: boolean }> {
  const stored = await readSetting<SynonymSets>(db, SETTING);
  return stored ? { sets: stored, defaults: false } : { sets: DEFAULT_SYNONYMS, defaults: true };
}

/** Stores the team's sets (checked and tidied); the caller tells the servers (a `search` revision). */
export async function writeSynonyms(db: Executor, sets: SynonymSets): Promise<SynonymSets> {
  const tidy = tidySynonyms(sets);
  await writeSetting(db, SETTING, tidy);
  return tidy;
}
