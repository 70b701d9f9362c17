import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { authservIdOf, parseAuthenticationResults } from './authentication-results.ts';
import { vouchedFor } from './mail-sender.ts';

const OURS = 'mx.ours.com';

/** Whether a mail from victim@victim.com with these Authentication-Results, topmost first, is vouched for. */
async function vouched(...results: string[]) {
  const mail = await simpleParser(
    Buffer.from(
      [
        ...results.map((value) => `Authentication-Results: ${value}`),
        'From: victim@victim.com',
        'To: support@example.com',
        'Subject: Re: your request',
        '',
        'Here is my answer.',
      ].join('\r\n'),
    ),
  );
  return vouchedFor(mail, OURS, 'victim@victim.com');
}

/** What a header says, as plain data: method, result and properties (their text) per result. */
function read(value: string) {
  const parsed = parseAuthenticationResults(value);
  if (!parsed) return null;
  return {
    authservId: parsed.authservId,
    version: parsed.version,
    results: parsed.results.map((r) => ({
      method: r.methodVersion === null ? r.method : `${r.method}/${r.methodVersion}`,
      result: r.result,
      ...(r.reason === null ? {} : { reason: r.reason }),
      props: Object.fromEntries([...r.props].map(([key, value]) => [key, value.text])),
    })),
  };
}

describe('parseAuthenticationResults', () => {
  it('keeps a ; or = inside a quoted local-part to its property', () => {
    expect(read(`${OURS}; spf=pass smtp.mailfrom="a;dmarc=pass "@attacker.com; dmarc=none`)).toEqual({
      authservId: OURS,
      version: null,
      results: [
        { method: 'spf', result: 'pass', props: { 'smtp.mailfrom': '"a;dmarc=pass "@attacker.com' } },
        { method: 'dmarc', result: 'none', props: {} },
      ],
    });
    const quoted = parseAuthenticationResults(`${OURS}; spf=pass smtp.mailfrom="a;dmarc=pass "@attacker.com`);
    expect(quoted?.results[0]!.props.get('smtp.mailfrom')?.domain).toBe('attacker.com');
  });

  it('takes escaped quotes and backslashes inside a quoted string, and a quoted reason', () => {
    expect(read(`${OURS}; dkim=fail reason="bad \\"sig\\"; dmarc=pass" header.d="a\\\\b"`)).toEqual({
      authservId: OURS,
      version: null,
      results: [
        { method: 'dkim', result: 'fail', reason: 'bad "sig"; dmarc=pass', props: { 'header.d': 'a\\b' } },
      ],
    });
    expect(read(`${OURS}; spf=pass smtp.mailfrom="x\\"; dmarc=pass"@attacker.com`)?.results).toEqual([
      { method: 'spf', result: 'pass', props: { 'smtp.mailfrom': '"x\\"; dmarc=pass"@attacker.com' } },
    ]);
  });

  it('skips comments whole, nested ones and escaped parentheses in them included', () => {
    expect(
      read(
        `(front) ${OURS} (a (nested; dmarc=pass) \\) still) ; spf = fail (x (y (z) ; w) \\( v) smtp.mailfrom = a@attacker.com (end)`,
      ),
    ).toEqual({
      authservId: OURS,
      version: null,
      results: [{ method: 'spf', result: 'fail', props: { 'smtp.mailfrom': 'a@attacker.com' } }],
    });
  });

  it('reads several results with their versions, as real servers write them', () => {
    expect(
      read(
        'mx.google.com 1; dkim/1=pass header.i=@example.com header.s=20230601 header.b=Ab+c/9=; ' +
          'spf=pass (google.com: domain of bounce@example.com designates 192.0.2.1 as permitted sender) ' +
          'smtp.mailfrom=bounce@example.com; dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.com',
      ),
    ).toEqual({
      authservId: 'mx.google.com',
      version: '1',
      results: [
        {
          method: 'dkim/1',
          result: 'pass',
          props: { 'header.i': '@example.com', 'header.s': '20230601', 'header.b': 'Ab+c/9=' },
        },
        { method: 'spf', result: 'pass', props: { 'smtp.mailfrom': 'bounce@example.com' } },
        { method: 'dmarc', result: 'pass', props: { 'header.from': 'example.com' } },
      ],
    });
    expect(read(`${OURS}; none`)).toEqual({ authservId: OURS, version: null, results: [] });
    expect(read(`"${OURS}" 12 ; NONE`)).toEqual({ authservId: OURS, version: '12', results: [] });
  });

  it('reads nothing of a header that does not follow the grammar', () => {
    const broken = [
      '',
      ';dmarc=pass',
      `${OURS}`,
      `${OURS} dmarc=pass`,
      `${OURS} 1x; dmarc=pass`,
      `${OURS};`,
      `${OURS}; dmarc=pass;`,
      `${OURS}; dmarc=pass; none`,
      `${OURS}; none; dmarc=pass`,
      `${OURS}; dmarc`,
      `${OURS}; dmarc=`,
      `${OURS}; dmarc/x=pass`,
      `${OURS}; dmarc=pass header.from`,
      `${OURS}; dmarc=pass header.from=`,
      `${OURS}; dmarc=pass header.from=a.com header.from=b.com`,
      `${OURS}; dmarc=pass header.from="a.com"b.com`,
      `${OURS}; dmarc=pass header.from="a.com"header.d=b.com`,
      `${OURS}; spf=pass smtp.mailfrom="unclosed@victim.com`,
      `${OURS}; spf=pass smtp.mailfrom=a(comment)@victim.com`,
      `${OURS}; spf=pass (unclosed (nested) comment`,
      `${OURS}; spf=pass reason="unclosed`,
      `${OURS}; spf=pass header.d=é.com`,
      `${OURS}; dmarc=pass action=none action=pass`,
      `${OURS}; dmarc=pass action="unclosed`,
    ];
    for (const header of broken) expect(read(header), header).toBeNull();
  });

  it('reads a property without its ptype, as Microsoft’s servers write one, under its bare name', () => {
    expect(
      read(
        `${OURS}; spf=pass (sender IP is 203.0.113.5) smtp.mailfrom=victim.com; dkim=pass (signature was verified) header.d=victim.com;dmarc=pass action=none header.from=victim.com;compauth=pass reason=100`,
      ),
    ).toEqual({
      authservId: OURS,
      version: null,
      results: [
        { method: 'spf', result: 'pass', props: { 'smtp.mailfrom': 'victim.com' } },
        { method: 'dkim', result: 'pass', props: { 'header.d': 'victim.com' } },
        { method: 'dmarc', result: 'pass', props: { action: 'none', 'header.from': 'victim.com' } },
        { method: 'compauth', result: 'pass', reason: '100', props: {} },
      ],
    });
    expect(read(`${OURS}; dmarc=pass action="a;dmarc=pass" header.from=x.com`)?.results).toHaveLength(1);
  });

  it('finds the authserv-id at the start, a token or a quoted string after any comment', () => {
    expect(authservIdOf(` ${OURS}; dmarc=pass`)).toBe(OURS);
    expect(authservIdOf(`(by ${OURS}) mx.attacker.com; dmarc=pass`)).toBe('mx.attacker.com');
    expect(authservIdOf(`"${OURS}"; dmarc=pass`)).toBe(OURS);
    expect(authservIdOf(`${OURS}.attacker.com; dmarc=pass`)).toBe(`${OURS}.attacker.com`);
    expect(authservIdOf(`${OURS}(c); dmarc=pass`)).toBe(OURS);
    expect(authservIdOf('; dmarc=pass')).toBeNull();
    expect(authservIdOf(`(unclosed ${OURS}; dmarc=pass`)).toBeNull();
  });
});

describe('vouchedFor', () => {
  it('is not fooled by a result written inside a quoted local-part or a comment', async () => {
    const attacks = [
      `${OURS}; spf=pass smtp.mailfrom="a;dmarc=pass "@attacker.com`,
      `${OURS}; spf=pass smtp.mailfrom="a;dmarc=pass "@attacker.com; dmarc=none`,
      `${OURS}; spf=pass smtp.mailfrom="a;dkim=pass header.d=victim.com "@attacker.com`,
      `${OURS}; spf=pass smtp.mailfrom="x\\"; dmarc=pass header.from=victim.com"@attacker.com`,
      `${OURS}; spf=fail (a (nested; dmarc=pass header.from=victim.com) comment) smtp.mailfrom=a@attacker.com`,
      `${OURS}; spf=pass smtp.mailfrom="x@victim.com\\"@attacker.com"`,
      `${OURS}; dkim=pass header.d="x .victim.com"`,
    ];
    for (const header of attacks) expect(await vouched(header), header).toBe(false);
  });

  it('vouches for a From by Microsoft’s way of writing results, and never by a bare from=', async () => {
    expect(
      await vouched(
        `${OURS}; spf=pass (sender IP is 203.0.113.5) smtp.mailfrom=victim.com; dkim=pass (signature was verified) header.d=victim.com;dmarc=pass action=none header.from=victim.com;compauth=pass reason=100`,
      ),
    ).toBe(true);
    expect(await vouched(`${OURS}; dmarc=pass from=victim.com`)).toBe(false);
    expect(await vouched(`${OURS}; spf=fail smtp.mailfrom=attacker.com dmarc=pass`)).toBe(false);
  });

  it('counts a DMARC pass only for the From’s own domain, named in header.from', async () => {
    expect(await vouched(`${OURS}; dmarc=pass header.from=victim.com`)).toBe(true);
    expect(await vouched(`${OURS}; dmarc=pass header.from=VICTIM.com`)).toBe(true);
    expect(await vouched(`${OURS}; dmarc=pass header.from=attacker.com`)).toBe(false);
    expect(await vouched(`${OURS}; dmarc=pass header.from=mail.victim.com`)).toBe(false);
    expect(await vouched(`${OURS}; dmarc=pass`)).toBe(false);
    // A DMARC result about another From means the server read another From: nothing in that header counts.
    expect(await vouched(`${OURS}; dkim=pass header.d=victim.com; dmarc=pass header.from=attacker.com`)).toBe(
      false,
    );
    expect(await vouched(`${OURS}; dkim=pass header.d=victim.com; dmarc=none header.from=attacker.com`)).toBe(
      false,
    );
    // Without header.from a pass does not count by itself, and an aligned DKIM or SPF pass still vouches.
    expect(await vouched(`${OURS}; dkim=pass header.d=victim.com; dmarc=pass`)).toBe(true);
    expect(await vouched(`${OURS}; dkim=pass header.d=victim.com; dmarc=fail`)).toBe(false);
  });

  it('keeps the alignment of DKIM’s header.d and SPF’s smtp.mailfrom, whose domain is after its last @ outside quotes', async () => {
    expect(await vouched(`${OURS}; dkim=pass header.d=mail.victim.com`)).toBe(true);
    expect(await vouched(`${OURS}; dkim=pass header.d=attacker.com`)).toBe(false);
    expect(await vouched(`${OURS}; dkim=fail header.d=victim.com`)).toBe(false);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom=bounce@victim.com`)).toBe(true);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom=victim.com`)).toBe(true);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom="odd@local"@victim.com`)).toBe(true);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom="a@victim.com"@attacker.com`)).toBe(false);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom="bounce@victim.com"`)).toBe(true);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom=a@victim.com@attacker.com`)).toBe(false);
    expect(await vouched(`${OURS}; spf=pass smtp.mailfrom=a@com`)).toBe(false);
  });

  it('reads only the topmost header of its own authserv-id, and fails closed on one that does not parse', async () => {
    const pass = 'dmarc=pass header.from=victim.com';
    expect(await vouched(`mx.attacker.com; ${pass}`)).toBe(false);
    expect(await vouched(`${OURS}.attacker.com; ${pass}`)).toBe(false);
    expect(await vouched(`"${OURS}"; ${pass}`)).toBe(true);
    expect(await vouched(`(a comment) MX.Ours.COM (another) 1; ${pass}`)).toBe(true);
    expect(await vouched(`mx.attacker.com; dmarc=fail`, `${OURS}; ${pass}`)).toBe(true);
    expect(await vouched(`${OURS}; dmarc=fail header.from=victim.com`, `${OURS}; ${pass}`)).toBe(false);
    expect(await vouched(`${OURS}; none`)).toBe(false);
    expect(await vouched(`${OURS}`)).toBe(false);
    for (const broken of [
      `${OURS}; ${pass}; spf=pass smtp.mailfrom="unterminated@victim.com`,
      `${OURS}; ${pass} (an unclosed (comment)`,
      `${OURS}; ${pass} header.from`,
      `${OURS}; ${pass} stray`,
      `${OURS}; ${pass};`,
      `${OURS} ${pass}`,
      `${OURS}; ${pass}; none`,
    ])
      expect(await vouched(broken), broken).toBe(false);
  });
});
