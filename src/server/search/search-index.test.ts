import { describe, expect, it } from 'vitest';
import type { Language } from '../../shared/constants.ts';
import { SearchIndex, type SearchDocument } from './search-index.ts';
import { compileSynonyms } from './synonyms.ts';

let nextId = 1;
const doc = (title: string, text = '', lang: Language = 'en'): SearchDocument => ({
  id: nextId++,
  title,
  text,
  category: '',
  section: 'Help',
  lang,
  category_id: null,
  section_id: 1,
  restricted: false,
});

describe('words written differently', () => {
  // Each article writes its word one way; the queries write it every other way.
  const articles = {
    wifi: doc('Connect to Wi-Fi', 'Pick your network and type its key.'),
    email: doc('Change your email address', 'Open your profile.'),
    login: doc('Trouble to log in', 'Check your keyboard layout.'),
    timezone: doc('Working across countries', 'Each member sets a timezone in the profile.'),
    setup: doc('Setup of the dock', 'Plug the cable into the port.'),
    twoFactor: doc('Two-factor authentication', 'Codes from an app protect the account.'),
    volts: doc('Power adapter', 'The device takes 24V from the adapter.'),
    twoFa: doc('Backup codes', 'When 2FA is on, keep these codes somewhere safe.'),
    ruWifi: doc('Подключение к вай-фай', 'Выберите сеть и введите пароль.', 'ru'),
    noise: doc('Wireless mouse', 'A fine day for a walk; set the table; the zone of the timer.'),
  };
  const index = SearchIndex.build(Object.values(articles));
  const first = async (query: string) => (await index).search(query, 5)[0]?.id;

  it.each([
    ['wifi', 'wifi'],
    ['wi fi', 'wifi'],
    ['WiFi', 'wifi'],
    ['e-mail', 'email'],
    ['e mail address', 'email'],
    ['login', 'login'],
    ['log-in', 'login'],
    ['time zone', 'timezone'],
    ['time-zone', 'timezone'],
    ['set up the dock', 'setup'],
    ['set-up', 'setup'],
    ['twofactor', 'twoFactor'],
    ['two factor', 'twoFactor'],
    ['24 V', 'volts'],
    ['24v adapter', 'volts'],
    ['2 FA codes', 'twoFa'],
    ['вайфай', 'ruWifi'],
    ['вай фай', 'ruWifi'],
  ] as const)('"%s" finds the article that writes it otherwise', async (query, key) => {
    expect(await first(query)).toBe(articles[key].id);
  });

  it('keeps a word the index has whole first over its parts', async () => {
    const workspace = doc('Workspace settings', 'Rename it.');
    const parts = doc('Work in any space', 'Work from anywhere.');
    const results = (await SearchIndex.build([parts, workspace])).search('workspace', 5);
    expect(results.map((r) => r.id)).toEqual([workspace.id, parts.id]);
  });

  it('never lets a split word make an article match every word: its parts may be far apart', async () => {
    const schedule = doc('Create a heating schedule', 'Pick the days and the temperatures for each.');
    const api = doc(
      'API overview',
      'Create a token. Heating zones and schedules can be read; the token ends after a week.',
    );
    const results = (await SearchIndex.build([api, schedule])).search(
      'create a heating schedule for weekends',
      5,
    );
    expect(results.map((r) => r.id)).toEqual([schedule.id, api.id]);
  });

  it('marks the parts a split word matched in the snippet', async () => {
    const results = (await index).search('wifi', 5);
    const wifi = doc('x', 'Your Wi-Fi key is on the router.');
    const hit = (await SearchIndex.build([wifi])).search('wifi', 1)[0];
    expect(results[0]?.title).toBe('Connect to Wi-Fi');
    expect(hit?.snippet).toBe('Your <mark>Wi</mark>-<mark>Fi</mark> key is on the router.');
  });
});

describe('synonyms', () => {
  const refund = doc('Refund a payment', 'Send the money back to the card it came from.');
  const invite = doc('Invite team members', 'Members get an email with a link.');
  const signIn = doc('Sign in with a passkey', 'Use your device instead of a password.');
  const ru = doc('Удалить проект', 'Проект пропадёт у всех участников.', 'ru');
  const other = doc('Export a report', 'Reports download as CSV.');
  const built = SearchIndex.build([refund, invite, signIn, ru, other]);
  const table = compileSynonyms({
    en: [
      ['refund', 'reimbursement'],
      ['sign in', 'log in', 'log on'],
      ['invite', 'add people'],
    ],
    ru: [['удалить', 'стереть']],
  });

  it('finds an article by another word of its set, and only with the set', async () => {
    const index = await built;
    expect(index.search('reimbursement', 5)).toEqual([]);
    expect(index.search('reimbursement', 5, 'everyone', { synonyms: table })[0]?.id).toBe(refund.id);
    expect(index.search('reimbursements', 5, 'everyone', { synonyms: table })[0]?.id).toBe(refund.id);
  });

  it('matches phrases, joined or not, in the language of the set', async () => {
    const index = await built;
    const top = (q: string) => index.search(q, 5, 'everyone', { synonyms: table })[0]?.id;
    expect(top('how do I log in')).toBe(signIn.id);
    expect(top('logon')).toBe(signIn.id);
    expect(top('add people')).toBe(invite.id);
    expect(top('стереть проект')).toBe(ru.id);
  });

  it('ranks the word as typed above its synonym', async () => {
    const typed = doc('Reimbursement of travel costs', 'Claim them monthly.');
    const index = await SearchIndex.build([refund, typed]);
    const ids = index.search('reimbursement', 5, 'everyone', { synonyms: table }).map((r) => r.id);
    expect(ids).toEqual([typed.id, refund.id]);
  });

  it('multiplies scores by the boost given', async () => {
    const a = doc('Printer setup', 'Connect the printer.');
    const b = doc('Printer setup guide', 'Connect the printer.');
    const index = await SearchIndex.build([a, b]);
    const plain = index.search('printer setup', 5).map((r) => r.id);
    const favoured = plain.at(-1) as number;
    const boosted = index.search('printer setup', 5, 'everyone', {
      boost: new Map([[favoured, 3]]),
    });
    expect(boosted[0]?.id).toBe(favoured);
  });
});

describe('the languages a query word is stemmed in', () => {
  it('are those of the documents the index holds, as they come and go', async () => {
    // 'casas' is 'cas' by the Portuguese stemmer and 'casa' by the English one; 'cas' is a word of the English title.
    const english = doc('Cas latency explained', 'Memory timings.');
    const index = await SearchIndex.build([english, doc('Laptop battery', 'Charge it.')]);
    expect(index.search('casas', 5)).toEqual([]);
    const portuguese = doc('Casa inteligente', 'Luzes e portas.', 'pt-BR');
    await index.upsert([portuguese]);
    expect(index.search('casas', 5).map((hit) => hit.id)).toEqual(
      expect.arrayContaining([portuguese.id, english.id]),
    );
    index.remove([portuguese.id]);
    expect(index.search('casas', 5)).toEqual([]);
  });
});

describe('typos', () => {
  it('finds a word with two neighbouring letters swapped, and one with two edits from ten letters', async () => {
    const workload = doc('Balance the workload', 'Share tasks.');
    const temperature = doc('Temperature reading', 'Check the sensor.');
    const index = await SearchIndex.build([workload, temperature]);
    expect(index.search('worklaod', 5)[0]?.id).toBe(workload.id);
    expect(index.search('temprarture', 5)[0]?.id).toBe(temperature.id);
  });

  it('finds by a typo a word added after the same typo found nothing, and no longer one removed', async () => {
    const index = await SearchIndex.build([doc('Printer setup', 'Connect the printer.')]);
    expect(index.search('thermostst', 5)).toEqual([]);
    const added = doc('Thermostat offline', 'Check the wiring.');
    await index.upsert([added]);
    expect(index.search('thermostst', 5)[0]?.id).toBe(added.id);
    index.remove([added.id]);
    expect(index.search('thermostst', 5)).toEqual([]);
    await index.upsert([{ ...added, title: 'Thermometer offline' }]);
    expect(index.search('thermostst', 5)).toEqual([]);
    expect(index.search('thermometr', 5)[0]?.id).toBe(added.id);
  });
});

describe('the last word as typed', () => {
  it('completes a stem shorter than five letters from titles and names only', async () => {
    // 'topar' is 'top' in Portuguese (a language of the index): in bodies that begins hundreds of words.
    const titled = doc('Topology of the network', 'Draw it.');
    const body = doc('Network map', 'The topology is drawn for you.');
    const index = await SearchIndex.build([
      titled,
      body,
      doc('Mapa da rede', 'Desenhado para você.', 'pt-BR'),
    ]);
    expect(index.search('topar', 5).map((r) => r.id)).toEqual([titled.id]);
  });
});

describe('a title looked for as written (exact)', () => {
  it('finds its words and their forms, but no typo, prefix, join or split of them', async () => {
    const heating = doc('Heating schedules', 'Set the heating for each day.');
    const heated = doc('A heated floor', 'The floor warms the room.');
    const typo = doc('Heatng problems', 'When the radiator stays cold.');
    const longer = doc('Heatingpump maintenance', 'Service it yearly.');
    const index = await SearchIndex.build([heating, heated, typo, longer]);
    const ids = (query: string, exact: boolean) =>
      index.search(query, 10, 'everyone', { exact }).map((h) => h.id);
    // A visitor's query finds the typo and the longer word; a title looked for as written does not.
    expect(ids('heating', false)).toEqual(expect.arrayContaining([heating.id, typo.id, longer.id]));
    expect(ids('heating', true)).toContain(heating.id);
    expect(ids('heating', true)).toContain(heated.id);
    expect(ids('heating', true)).not.toContain(typo.id);
    expect(ids('heating', true)).not.toContain(longer.id);
  });
});

describe('snippets', () => {
  const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

  it('shows the beginning of the body, nothing marked, for an article found by its title alone', async () => {
    const body = `${filler(60)} and the end.`;
    const titled = doc('Invoices explained', body);
    const index = await SearchIndex.build([titled]);
    const [hit] = index.search('invoices', 5);
    expect(hit?.id).toBe(titled.id);
    expect(hit?.snippet).toBe(`${body.slice(0, 160)}…`);
    expect(hit?.snippet).not.toContain('<mark>');
  });

  it('opens the window at the first matching word far into the body, with its capital and accents', async () => {
    const body = `${filler(80)}, then Réfunds arrive; refunding takes a day. ${filler(20)}`;
    const deep = doc('Money matters', body);
    const index = await SearchIndex.build([deep, doc('Other', 'Nothing here.')]);
    const [hit] = index.search('refund', 5);
    expect(hit?.id).toBe(deep.id);
    expect(hit?.snippet.startsWith('…')).toBe(true);
    expect(hit?.snippet).toContain('<mark>Réfunds</mark> arrive; <mark>refunding</mark> takes');
  });

  it('marks what a word begun stands for in the body, when it begins more words than the article has', async () => {
    // A hundred and twenty other titles begin with the same letters: many more completions than the article has words.
    const others = Array.from({ length: 120 }, (_, i) =>
      doc(`Calen${String.fromCharCode(97 + (i % 26))}${i} notes`, 'Nothing here.'),
    );
    const long = doc('Sync', 'Open the calendars, then calendaring starts. The calculator waits.');
    const short = doc('Colours of the calendar', 'The calendar and the calculator.');
    const index = await SearchIndex.build([...others, long, short, doc('Calculator', 'Sums.')]);
    const snippetOf = (query: string, id: number) =>
      index.search(query, 200).find((hit) => hit.id === id)?.snippet;
    // Five letters and more are completed everywhere: every completion the body holds is marked.
    expect(snippetOf('calen', long.id)).toBe(
      'Open the <mark>calendars</mark>, then <mark>calendaring</mark> starts. The calculator waits.',
    );
    // Three are completed from titles and names only: a body word is marked when the article was found by it.
    expect(snippetOf('cal', short.id)).toBe('The <mark>calendar</mark> and the calculator.');
  });

  it('marks the words of the version shown, found by another version', async () => {
    const own = doc('Refund a payment', 'Choose the payment.');
    const shown = { ...doc('Refund a payment', 'A refund takes a day.'), article_id: own.id };
    const index = await SearchIndex.build([own, shown]);
    const [hit] = index.search('refund', 5, 'everyone', {
      only: new Set([own.id]),
      shown: new Map([[own.id, shown.id]]),
    });
    expect(hit?.snippet).toBe('A <mark>refund</mark> takes a day.');
  });

  it('gives an article once, in the version that ranks best, also after versions come and go', async () => {
    // Words no stemmer changes, so the versions differ only by the reader's language.
    const own = doc('Zorblat qwix', 'Blick zorblat qwix.');
    const translated = {
      ...doc('Zorblat qwix', 'Blick zorblat qwix.', 'pt-BR'),
      article_id: own.id,
    };
    const other = doc('Qwix methods', 'Cards and transfers.');
    const index = await SearchIndex.build([own, translated, other]);
    // A hit names its article, in the language of the version found.
    const hits = (lang: Language) =>
      index.search('zorblat qwix', 5, 'everyone', { lang }).map((hit) => `${hit.id} ${hit.lang}`);
    // The reader's language weighs more, so their version ranks first and stands for the article.
    expect(hits('pt-BR')).toEqual([`${own.id} pt-BR`, `${other.id} en`]);
    expect(hits('en')).toEqual([`${own.id} en`, `${other.id} en`]);
    index.remove([translated.id]);
    expect(hits('pt-BR')).toEqual([`${own.id} en`, `${other.id} en`]);
    await index.upsert([translated]);
    expect(hits('pt-BR')).toEqual([`${own.id} pt-BR`, `${other.id} en`]);
  });
});
