import fs from 'node:fs';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { answerOfMail, stripReply } from './strip-reply.ts';

const ANSWER = 'Resetting helped, thank you.\n\nThe display shows 21 °C again.';

describe('stripping what a mail client adds below an answer', () => {
  it.each([
    ['en (Gmail)', 'On Mon, 3 Jun 2024 at 10:00, Signpost <help@example.com> wrote:'],
    ['en (Apple Mail)', 'On 3 Jun 2024, at 10:00, Signpost <help@example.com> wrote:'],
    ['ru', '3 июня 2024 г., в 10:00, Signpost <help@example.com> написал(а):'],
    ['ru (Gmail)', 'пн, 3 июн. 2024 г. в 10:00, Signpost <help@example.com>:'],
    ['ru (Yandex)', '03.06.2024, 10:00, "Signpost" <help@example.com>:'],
    ['pt-BR', 'Em seg., 3 de jun. de 2024 às 10:00, Signpost <help@example.com> escreveu:'],
    ['it', 'Il giorno lun 3 giu 2024 alle ore 10:00 Signpost <help@example.com> ha scritto:'],
    ['sk', 'Dňa po 3. 6. 2024 o 10:00 Signpost <help@example.com> napísal(a):'],
    ['de', 'Am Mo., 3. Juni 2024 um 10:00 Uhr schrieb Signpost <help@example.com>:'],
    ['fr', 'Le lun. 3 juin 2024 à 10:00, Signpost <help@example.com> a écrit :'],
    ['es', 'El lun, 3 jun 2024 a las 10:00, Signpost (<help@example.com>) escribió:'],
  ])('cuts at the attribution line: %s', (_language, attribution) => {
    const mail = `${ANSWER}\n\n${attribution}\n\n> Dana Desk replied to your request:\n> Try a reset.\n`;
    expect(stripReply(mail)).toBe(ANSWER);
  });

  it('cuts at an attribution the client wrapped onto two lines, keeping the line above it', () => {
    const mail = `${ANSWER}\n\nOn Mon, 3 Jun 2024 at 10:00, Signpost Help Centre\n<help@example.com> wrote:\n> Try a reset.`;
    expect(stripReply(mail)).toBe(ANSWER);
    const russian = `Спасибо, помогло.\n3 июня 2024 г., в 10:00, Signpost <help@example.com> написал(а):\n> Попробуйте сбросить.`;
    expect(stripReply(russian)).toBe('Спасибо, помогло.');
  });

  it("cuts at Outlook's separator and at its header block", () => {
    expect(stripReply(`${ANSWER}\n\n-----Original Message-----\nFrom: Signpost\nTry a reset.`)).toBe(ANSWER);
    expect(stripReply(`${ANSWER}\n\n-----Исходное сообщение-----\nОт: Signpost`)).toBe(ANSWER);
    const block = `${ANSWER}\n\nFrom: Signpost <help@example.com>\nSent: Monday, June 3, 2024 10:00 AM\nTo: Ann Lee\nSubject: Re: Thermostat\n\nTry a reset.`;
    expect(stripReply(block)).toBe(ANSWER);
    const german = `${ANSWER}\n\nVon: Signpost <help@example.com>\nGesendet: Montag, 3. Juni 2024 10:00\nAn: Ann Lee`;
    expect(stripReply(german)).toBe(ANSWER);
  });

  it('drops the signature after "-- " and quoted lines between answers, and keeps a "From:" the customer wrote', () => {
    expect(stripReply(`${ANSWER}\n\n-- \nAnn Lee\nACME Heating`)).toBe(ANSWER);
    expect(stripReply(`${ANSWER}\n--\nAnn`)).toBe(ANSWER);
    const inline = '> Which model is it?\nThe T-1000.\n> Since when?\nSince Monday.';
    expect(stripReply(inline)).toBe('The T-1000.\nSince Monday.');
    expect(stripReply('From: my phone, sorry for typos.\nIt works now.')).toBe(
      'From: my phone, sorry for typos.\nIt works now.',
    );
  });

  it('keeps an answer with nothing below it as written, line breaks included', () => {
    expect(stripReply(`  ${ANSWER}\r\n\r\n\r\n\r\nAnn  \r\n`)).toBe(`${ANSWER}\n\nAnn`);
    expect(stripReply('> only a quote')).toBe('');
  });
});

const KEY = 'q3Jf8mVw0ZlT2yXcB7nR5sKdA1uHgE9pLoWi4tYbN6M';
/** The help centre's PUBLIC_URL, as the service passes it. */
const PUBLIC_URL = 'https://help.example.com';
const LINK = `${PUBLIC_URL}/issues/12?key=${KEY}`;
/** Our reply as its mail's HTML part carries it (replyEmail): a whole document, with the request's private link. */
const OUR_MAIL =
  `<!doctype html><html lang="en"><body><p>Dana Desk replied to your request “Thermostat shows E3”:</p>\n` +
  `<div><p>Try a reset.</p></div>\n<p>Read the whole conversation and answer it here: <a href="${LINK}">${LINK}</a></p>\n` +
  `<p>To answer, reply to this email.</p></body></html>\n`;
/** What no kept answer may hold: our mail's words, whoever sent it, its link. */
const QUOTED = [
  'Dana Desk',
  'Try a reset',
  'Read the whole conversation',
  'To answer',
  'Signpost',
  'key=',
  KEY,
];

/** A mail of these parts (both: multipart/alternative), read by the parser the service uses. */
async function answerOf(parts: { text?: string; html?: string }): Promise<string> {
  const b64 = (content: string) => Buffer.from(content).toString('base64').replace(/.{76}/g, '$&\r\n');
  const part = (type: string, content: string) =>
    [`Content-Type: text/${type}; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', b64(content)].join(
      '\r\n',
    );
  const bodies = [
    ...(parts.text === undefined ? [] : [part('plain', parts.text)]),
    ...(parts.html === undefined ? [] : [part('html', parts.html)]),
  ];
  const head = [
    'From: ann@example.com',
    'To: support@example.com',
    'Subject: Re: Thermostat',
    'MIME-Version: 1.0',
  ];
  const raw =
    bodies.length === 1
      ? [...head, bodies[0]!].join('\r\n')
      : [
          ...head,
          'Content-Type: multipart/alternative; boundary="alt"',
          '',
          ...bodies.flatMap((body) => ['--alt', body]),
          '--alt--',
          '',
        ].join('\r\n');
  const mail = await simpleParser(Buffer.from(raw));
  return answerOfMail({ text: mail.text, html: mail.html }, PUBLIC_URL);
}

describe('the answer in a mail with HTML', () => {
  it('keeps the answer when the quote is a whole <html><body> document, wherever it sits', async () => {
    const quoted = `<blockquote><html><head><title>Re: Thermostat</title></head><body>${OUR_MAIL.split('<body>')[1]}</blockquote>`;
    for (const html of [
      `<html><body>Resetting helped.${quoted}</body></html>`,
      `<div dir="ltr">Resetting helped.</div>${quoted}`,
      `<html><head><meta charset="utf-8"></head><div>Resetting helped.</div>${quoted}</html>`,
      `<html><body><html><body><p>Resetting helped.</p>${quoted}</body></html></body></html>`,
    ])
      expect(await answerOf({ html }), html).toBe('Resetting helped.');
  });

  it('keeps nothing of a mail that is only the quote, not the quote the parser wrote as its text', async () => {
    expect(await answerOf({ html: `<div><br></div><blockquote type="cite">${OUR_MAIL}</blockquote>` })).toBe(
      '',
    );
    expect(await answerOf({ html: OUR_MAIL.replace('<body>', '<body><div id="divRplyFwdMsg"></div>') })).toBe(
      '',
    );
  });

  it('takes the text part when the HTML shows nothing but the quote and the text part has more', async () => {
    const html = `<div><img src="cid:photo@ann"></div><blockquote type="cite">${OUR_MAIL}</blockquote>`;
    const text = `See the photo of the display.\n\nOn Mon, 3 Jun 2024 at 10:00, Signpost <help@example.com> wrote:\n> Try a reset.`;
    expect(await answerOf({ html, text })).toBe('See the photo of the display.');
  });

  it('in Gmail’s quote container, sets aside the attribution in any language and a forwarded mail whole', async () => {
    const container = (inside: string) =>
      `<div dir="ltr">Bedankt, het werkt.</div><br><div class="gmail_quote gmail_quote_container">${inside}</div>`;
    const blockquote = `<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">${OUR_MAIL}</blockquote>`;
    const dutch = 'Op ma 3 jun 2024 om 10:00 schreef Signpost &lt;help@example.com&gt;:';
    for (const html of [
      container(`<div dir="ltr" class="gmail_attr">${dutch}<br></div>${blockquote}`),
      // Older Gmail: the attribution is the container's own text.
      container(`${dutch}<br>${blockquote}`),
      // A forward: the forwarded mail under its header, in no blockquote.
      container(
        '<div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>From: <strong class="gmail_sendername" dir="auto">Signpost Help</strong> <span dir="auto">&lt;help@example.com&gt;</span><br>Date: Mon, 3 Jun 2024 at 10:00<br>Subject: Re: Thermostat<br>To: &lt;ann@example.com&gt;<br></div><br><br>' +
          OUR_MAIL,
      ),
    ])
      expect(await answerOf({ html }), html).toBe('Bedankt, het werkt.');
  });

  it('keeps nothing of an HTML-only mail whose quote is set aside by its header block, however the parser renders it', async () => {
    // The quote is no element's: the header block above it sets it aside. The parser writes the block's table as one
    // line, which the rules of plain text do not know; its words are the HTML's, so it is the quote, not an answer.
    const header =
      '<table><tr><td><b>From:</b></td><td>Signpost Help &lt;help@example.com&gt;</td></tr>' +
      '<tr><td><b>Sent:</b></td><td>Monday, June 3, 2024 10:00 AM</td></tr>' +
      '<tr><td><b>To:</b></td><td>Ann Lee &lt;ann@example.com&gt;</td></tr></table>';
    expect(await answerOf({ html: `<div><br></div>${header}${OUR_MAIL}` })).toBe('');
  });

  it('keeps the customer’s own lines that start with ">": in HTML, only the markup says what is quote', async () => {
    const quote = `<blockquote type="cite">${OUR_MAIL}</blockquote>`;
    const above = `<div>Still broken after the reset:</div><div>&gt; 100 devices affected</div><div>&gt;&gt; all on firmware 2.1</div>${quote}`;
    expect(await answerOf({ html: above })).toBe(
      'Still broken after the reset:\n> 100 devices affected\n>> all on firmware 2.1',
    );
    const below =
      '<div dir="ltr"><br></div><div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">' +
      'On Mon, 3 Jun 2024 at 10:00, Signpost Help &lt;help@example.com&gt; wrote:<br></div>' +
      `<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">${OUR_MAIL}</blockquote>` +
      '<div>&gt; 100 devices affected</div><div>since the update.</div></div>';
    expect(await answerOf({ html: below })).toBe('> 100 devices affected\nsince the update.');
  });

  it('reads ">" as quote in HTML that has no quote in its markup: plain text a gateway turned into HTML', async () => {
    const quoted =
      'On Mon, 3 Jun 2024 at 10:00, Signpost Help &lt;help@example.com&gt; wrote:<br>&gt; Try a reset.<br>&gt; Dana';
    const text =
      'On Mon, 3 Jun 2024 at 10:00, Signpost Help <help@example.com> wrote:\n> Try a reset.\n> Dana\n\nIt worked after the reset.';
    for (const mail of [
      { html: `<p>${quoted}</p><p>It worked after the reset.</p>`, text },
      { html: `<p>${quoted}</p><p>It worked after the reset.</p>` },
      { html: `<pre>${quoted.replace(/<br>/g, '\n')}\n\nIt worked after the reset.</pre>` },
    ])
      expect(await answerOf(mail), mail.html).toBe('It worked after the reset.');
  });

  it('keeps the links the customer wrote, never the private link to the request', async () => {
    const html =
      `<div>The photo: <a href="https://photos.example.net/display">display</a>, and ` +
      `<a href="${LINK}">this page</a> does not open.</div><blockquote type="cite">${OUR_MAIL}</blockquote>`;
    expect(await answerOf({ html })).toBe(
      'The photo: display [https://photos.example.net/display], and this page does not open.',
    );
    expect(await answerOf({ text: `It says ${LINK} is not found.` })).toBe('It says is not found.');
  });

  it('takes out only our own private link: a link of the customer’s with an issue and a key is theirs', async () => {
    const theirs = [
      'https://jira.example.org/issues/5?key=abc',
      `https://jira.example.org/issues/5?key=${KEY}`,
      `https://github.com/acme/thermostat/issues/5?key=${KEY}`,
      `https://help.example.com.evil.example/issues/5?key=${KEY}`,
      `https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fjira.example.org%2Fissues%2F5%3Fkey%3D${KEY}&data=05%7C02&reserved=0`,
    ];
    for (const link of theirs)
      expect(await answerOf({ text: `See ${link} please.` })).toBe(`See ${link} please.`);
    const ours = [
      LINK,
      LINK.replace('help.example.com', 'Help.Example.COM'),
      `https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fhelp.example.com%2Fissues%2F12%3Fkey%3D${KEY}&data=05%7C02&reserved=0`,
      `https://urldefense.example/v3/?u=https%253A%252F%252Fhelp.example.com%252Fissues%252F12%253Fkey%253D${KEY}`,
    ];
    for (const link of ours) expect(await answerOf({ text: `See ${link} please.` })).toBe('See please.');
    const html = `<div>Ours: <a href="${LINK}">this page</a> and theirs: <a href="https://jira.example.org/issues/5?key=${KEY}">JIRA-5</a>.</div>`;
    expect(await answerOf({ html })).toBe(
      `Ours: this page and theirs: JIRA-5 [https://jira.example.org/issues/5?key=${KEY}].`,
    );
  });

  it('knows our private link under a public URL with a path and a port, and nowhere else on that host', () => {
    const publicUrl = 'http://intranet.example:8080/help';
    const link = (path: string) => `http://intranet.example:8080${path}/issues/3?key=${KEY}`;
    expect(answerOfMail({ text: `It is ${link('/help')} now.` }, publicUrl)).toBe('It is now.');
    expect(answerOfMail({ text: `It is ${link('/tracker')} now.` }, publicUrl)).toBe(
      `It is ${link('/tracker')} now.`,
    );
  });
});

describe('mail no client writes', () => {
  it('is read without failing the pass: nesting past any depth, attributions without end', () => {
    const n = 200_000;
    const open = `<div>Resetting helped.</div>${'<blockquote><div>'.repeat(n)}Try a reset.`;
    expect(answerOfMail({ html: open }, PUBLIC_URL)).toBe('Resetting helped.');
    const closed = `<div>Resetting helped.</div>${'<b>'.repeat(n)}Try a reset.${'</b>'.repeat(n)}`;
    expect(answerOfMail({ html: closed }, PUBLIC_URL)).toBe('Resetting helped.');
    const attributions = 'On Mon, 3 Jun 2024 at 10:00, Signpost <help@example.com> wrote:\n> Try a reset.\n';
    expect(stripReply(`${attributions.repeat(n)}\nIt works.`)).toBe('It works.');
  });

  it('past the HTML it reads, an answer below a long quote comes from the text part', () => {
    const html = `<blockquote type="cite">${'<p>Try a reset.</p>'.repeat(30_000)}</blockquote><div>It works.</div>`;
    expect(answerOfMail({ html, text: '> Try a reset.\n\nIt works.' }, PUBLIC_URL)).toBe('It works.');
  });
});

interface CorpusCase {
  fixture: string;
  client: string;
  answer: string;
}
const corpusDir = new URL('../../../../test-data/mail-replies/', import.meta.url);
const corpus = JSON.parse(fs.readFileSync(new URL('cases.json', corpusDir), 'utf8')) as {
  privateLink: string;
  cases: CorpusCase[];
};
const fixturePart = (name: string) => {
  const file = new URL(name, corpusDir);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
};

describe('replies as real mail clients write them (test-data/mail-replies)', () => {
  it('has a fixture for every case, and every fixture quotes our mail with its private link', () => {
    const named = new Set(corpus.cases.flatMap((c) => [`${c.fixture}.html`, `${c.fixture}.txt`]));
    const files = fs.readdirSync(corpusDir).filter((name) => name !== 'cases.json');
    expect(files.filter((name) => !named.has(name))).toEqual([]);
    for (const { fixture } of corpus.cases) {
      const parts = [fixturePart(`${fixture}.html`), fixturePart(`${fixture}.txt`)].filter(Boolean);
      expect(parts.length, fixture).toBeGreaterThan(0);
      for (const part of parts) expect(part, fixture).toContain(KEY);
    }
    expect(corpus.privateLink).toBe(LINK);
  });

  it.each(corpus.cases.map((c) => [c.fixture, c] as const))(
    '%s: the customer’s words, neither the quote nor the private link',
    async (fixture, { answer }) => {
      const kept = await answerOf({
        html: fixturePart(`${fixture}.html`),
        text: fixturePart(`${fixture}.txt`),
      });
      expect(kept).toBe(answer);
      for (const quoted of QUOTED) expect(kept).not.toContain(quoted);
    },
  );

  it.each(['gmail-below-quote', 'gmail-inline'])(
    '%s: the answer inside Gmail’s quote container, from the HTML alone and from the text alone',
    async (fixture) => {
      const { answer } = corpus.cases.find((c) => c.fixture === fixture)!;
      expect(await answerOf({ html: fixturePart(`${fixture}.html`) })).toBe(answer);
      expect(await answerOf({ text: fixturePart(`${fixture}.txt`) })).toBe(answer);
    },
  );
});
