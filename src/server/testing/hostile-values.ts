/**
 * The values the hostile-input suite (src/server/http/hostile-input.test.ts) sends to every field of every route:
 * what a broken client, a fuzzer or an attacker types, each in the form it takes where it is sent. A value can only
 * be sent where it has a form: a lone surrogate is `"\ud800"` in JSON and `%ED%A0%80` in a URL; raw CR, LF and NUL
 * in a header are bytes Node's parser must refuse before any route runs.
 */

/** What a field holds, as its schema says: a few values are only worth sending to one kind. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'array' | 'object' | 'any';

export interface HostileValue {
  label: string;
  /** JSON text put where the field's value goes in a body (never parsed here: 1e999 stays 1e999). */
  json?: string;
  /** As written in a URL, a path segment or a query value: escaped, or malformed on purpose. */
  url?: string;
  /** For a query parameter: the parameter repeated, once per item. */
  urlRepeated?: string[];
  /** As a header value: UTF-8 text; CR, LF and NUL go out raw. */
  header?: string;
  /** Sent only to fields of these kinds; every kind when absent. */
  only?: FieldKind[];
}

const text = (label: string, value: string, extra: Partial<HostileValue> = {}): HostileValue => ({
  label,
  json: JSON.stringify(value),
  url: encodeURIComponent(value),
  header: value,
  ...extra,
});

/** A number: a JSON number where JSON can hold it, its text in URLs, a string in JSON only for number fields. */
const numeric = (label: string, raw: string, extra: Partial<HostileValue> = {}): HostileValue => ({
  label,
  json: raw,
  url: encodeURIComponent(raw),
  ...extra,
});

const notNumber: FieldKind[] = ['text', 'boolean', 'array', 'object', 'any'];
const forNumbers: FieldKind[] = ['number', 'any'];

const OVERLONG = 'x'.repeat(100_000);

/** The catalogue, sent one value at a time to each field with everything else valid. */
export const HOSTILE_VALUES: HostileValue[] = [
  text('empty string', ''),
  text('lone %', '%', { url: '%' }),
  text('truncated %-escape', '%E0%A4%A', { url: '%E0%A4%A' }),
  text('%ZZ', '%ZZ', { url: '%ZZ' }),
  text('NUL', 'a\u0000b'),
  text('control characters', '\u0001\u0008\u001b[2J\u007f\u0085'),
  text('CR LF header injection', 'a\r\nSet-Cookie: injected=1'),
  text('bidi override', '\u202Egnp.exe\u202C', { only: notNumber }),
  text('isolates and zero-width', '\u2066a\u2069\u200B\uFEFF\u200D', { only: notNumber }),
  {
    label: 'lone surrogates',
    json: '"\\ud800x\\udc00"',
    // WTF-8 bytes of U+D800: not UTF-8, so no decoder may accept them.
    url: '%ED%A0%80',
  },
  text('4-byte character', '\u{1F600}\u{10FFFF}', { only: notNumber }),
  text('confusables', 'аdmin@ехаmple.com ｗｉｆｉ', { only: notNumber }),
  text('combining marks', `e${'\u0301'.repeat(500)}`, { only: notNumber }),
  text('overlong string (100k)', OVERLONG, { header: 'x'.repeat(20_000) }),
  text('long string (8k)', 'y'.repeat(8_000)),
  text('path traversal', '../../../../etc/passwd', { url: '../../../../etc/passwd' }),
  text('escaped traversal', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', { url: '%2e%2e%2f%2e%2e%2fetc%2fpasswd' }),
  text('backslash traversal', '..\\..\\windows\\win.ini', { only: notNumber }),
  text('markup', '"><script>alert(1)</script><img src=x onerror=alert(1)>', { only: notNumber }),
  text('SQL', "' OR '1'='1'; DROP TABLE users; --", { only: notNumber }),
  numeric('-1', '-1'),
  numeric('0', '0'),
  numeric('-0', '-0', { only: forNumbers }),
  numeric('1e308', '1e308'),
  numeric('-1e308', '-1e308', { only: forNumbers }),
  numeric('1e999 (Infinity in JSON)', '1e999'),
  numeric('-1e999', '-1e999', { only: forNumbers }),
  numeric('2^31', '2147483648'),
  numeric('2^53+1', '9007199254740993', { only: forNumbers }),
  numeric('1.5', '1.5', { only: forNumbers }),
  numeric('1e1', '1e1', { only: forNumbers }),
  text('Infinity', 'Infinity', { only: forNumbers }),
  text('-Infinity', '-Infinity', { only: forNumbers }),
  text('NaN', 'NaN'),
  text('0x10', '0x10', { only: forNumbers }),
  text('padded number', ' 1 ', { only: forNumbers }),
  { label: 'empty array', json: '[]', urlRepeated: [] },
  { label: 'array', json: '[1,"a",null]', urlRepeated: ['1', 'a'] },
  { label: 'empty object', json: '{}', url: '%7B%7D' },
  { label: 'object', json: '{"a":1,"toString":"x"}', url: encodeURIComponent('{"a":1}') },
  { label: 'true', json: 'true', url: 'true' },
  { label: 'false', json: 'false', url: 'false' },
  { label: 'null', json: 'null', url: 'null' },
];

/** The values one field is sent, by its kind. */
export function hostileValuesFor(kind: FieldKind): HostileValue[] {
  return HOSTILE_VALUES.filter((value) => !value.only || value.only.includes(kind));
}

/** Header values (the rest of a request valid): what a header can carry, and bytes no header may. */
export const HOSTILE_HEADER_VALUES: HostileValue[] = HOSTILE_VALUES.filter(
  (value) => value.header !== undefined,
).concat([
  { label: 'comma list', header: 'a, b, , c' },
  { label: 'Bearer prefix', header: 'Bearer x' },
]);

/** Headers the server reads on every request (the client's address, host, cookies, caching, the log's id). */
export const COMMON_HEADERS = [
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'Cookie',
  'X-Request-Id',
  'Accept-Encoding',
  'If-None-Match',
  'Range',
];

/** Fewer values for those: what reaches their readers (raw control bytes stop in the parser, whatever the header). */
export const HOSTILE_COMMON_HEADER_VALUES: HostileValue[] = [
  { label: 'empty', header: '' },
  { label: 'long (8k)', header: 'z'.repeat(8_000) },
  { label: 'bidi and 4-byte characters', header: '\u202E\u{1F600}=\u00ff; a=%ZZ' },
  {
    label: 'malformed escapes and separators',
    header:
      '%, %E0%A4%A;=,;; signpost_visitor=%ZZ; signpost_admin=%; signpost_request_1=%ZZ; signpost_request_1=; signpost_request_99999999999999999999=x; ' +
      'signpost_flow=%ZZ; signpost_flow=; signpost_flow=\u00ff; signpost_device=%; signpost_device=99999999999999999999.1.x',
  },
  { label: 'numbers out of range', header: 'bytes=99999999999999999999-1, -0, 1e308, NaN' },
  { label: 'NUL', header: 'a\u0000b' },
];

/** Changes to the whole address, once per route: malformed escapes in names, repeats, lengths, forms. */
export function hostileUrls(hasQuery: boolean): { label: string; edit: (target: string) => string }[] {
  const query = (extra: string) => (target: string) => `${target}${target.includes('?') ? '&' : '?'}${extra}`;
  const repeated = (target: string) => {
    const [path = '', search = ''] = target.split('?');
    const first = search.split('&')[0] ?? '';
    return `${path}?${search}&${first}&${first.replace(/=.*/, '=2')}`;
  };
  return [
    { label: 'lone % in a parameter name', edit: query('%=1') },
    { label: 'malformed escapes in names', edit: query('%E0%A4%A=1&%ZZ=2&a%=3') },
    { label: 'malformed escape in an unknown value', edit: query('utm_source=%ZZ%') },
    { label: 'prototype names', edit: query('__proto__=1&constructor=2&__proto__[x]=3&toString=4') },
    {
      label: 'a thousand parameters',
      edit: query(Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&')),
    },
    { label: '20k query (over the header limit)', edit: query(`q=${'q'.repeat(20_000)}`) },
    ...(hasQuery ? [{ label: 'known parameter repeated', edit: repeated }] : []),
    { label: 'empty name and value', edit: query('&=&&=x&') },
    { label: 'raw UTF-8 in the query', edit: query('q=\u202E\u{1F600}') },
    { label: 'raw space and quote', edit: query('q=a"b<c>') },
    { label: 'path with a double slash', edit: (target) => `/${target}` },
    { label: 'path with a trailing slash', edit: (target) => target.replace(/^([^?]*?)\/?(\?|$)/, '$1/$2') },
    { label: 'matrix parameter', edit: (target) => target.replace(/^([^?]*)/, '$1;jsessionid=x') },
    { label: 'escaped slash and dots', edit: (target) => target.replace(/^([^?]*)/, '$1%2F..%2F..%2Fetc') },
    { label: 'NUL in the path', edit: (target) => target.replace(/^([^?]*)/, '$1%00') },
    { label: 'absolute form', edit: (target) => `http://evil.example${target}` },
  ];
}

/** Deeply nested JSON: 10,000 arrays or objects, past any recursive walk's stack. */
export const DEPTH = 10_000;
export const deepArray = (depth = DEPTH) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
export const deepObject = (depth = DEPTH) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

export interface RawBody {
  label: string;
  /** The Content-Type header sent; none when undefined. */
  contentType?: string;
  body: Buffer;
  /** Headers of their own, e.g. Transfer-Encoding written by hand. */
  headers?: [string, string][];
}

/** The valid body with one more property, as JSON text (the property written raw). */
function withProperty(valid: Record<string, unknown>, name: string, rawValue: string): string {
  const inner = JSON.stringify(valid).slice(1, -1);
  return `{${inner}${inner ? ',' : ''}${JSON.stringify(name)}:${rawValue}}`;
}

/**
 * Body-wide cases, sent once per route that reads a body: deep and huge JSON, wrong content types, JSON that does
 * not parse, an empty body, prototype keys, a chunked body that breaks off.
 */
export function hostileBodies(valid: Record<string, unknown>, bodyLimit: number): RawBody[] {
  const json = 'application/json';
  const validText = JSON.stringify(valid);
  const b = (s: string) => Buffer.from(s, 'utf8');
  const first = Object.keys(valid)[0];
  return [
    { label: 'deep array as the body', contentType: json, body: b(deepArray()) },
    {
      label: 'deep array in a property',
      contentType: json,
      body: b(withProperty(valid, 'deep', deepArray())),
    },
    {
      label: 'deep object in a property',
      contentType: json,
      body: b(withProperty(valid, 'deep', deepObject())),
    },
    ...(first
      ? [
          {
            label: `deep array in ${first}`,
            contentType: json,
            body: b(withProperty(Object.fromEntries(Object.entries(valid).slice(1)), first, deepArray())),
          },
        ]
      : []),
    {
      label: 'just over the body limit',
      contentType: json,
      body: b(withProperty(valid, 'pad', JSON.stringify('p'.repeat(bodyLimit)))),
    },
    {
      label: '50,000 properties',
      contentType: json,
      body: b(
        withProperty(
          valid,
          'wide',
          `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
        ),
      ),
    },
    { label: 'text/plain', contentType: 'text/plain', body: b(validText) },
    { label: 'form encoded', contentType: 'application/x-www-form-urlencoded', body: b('a=1&b=%ZZ') },
    { label: 'multipart without boundary', contentType: 'multipart/form-data', body: b('--x\r\n\r\n') },
    {
      label: 'JSON in UTF-16',
      contentType: 'application/json; charset=utf-16',
      body: Buffer.from(validText, 'utf16le'),
    },
    { label: 'JSON without Content-Type', body: b(validText) },
    { label: 'invalid content type', contentType: 'application/json;;;=\u00ff', body: b(validText) },
    { label: 'truncated JSON', contentType: json, body: b(validText.slice(0, -1)) },
    { label: 'trailing garbage', contentType: json, body: b(`${validText}}`) },
    {
      label: 'byte order mark',
      contentType: json,
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b(validText)]),
    },
    {
      label: 'invalid UTF-8',
      contentType: json,
      body: Buffer.concat([b('{"x":"'), Buffer.from([0xc3, 0x28, 0xff]), b('"}')]),
    },
    { label: 'empty body', contentType: json, body: Buffer.alloc(0) },
    { label: 'null body', contentType: json, body: b('null') },
    { label: 'array body', contentType: json, body: b('[]') },
    { label: 'string body', contentType: json, body: b('"x"') },
    { label: '__proto__', contentType: json, body: b(withProperty(valid, '__proto__', '{"role":"admin"}')) },
    {
      label: 'constructor.prototype',
      contentType: json,
      body: b(withProperty(valid, 'constructor', '{"prototype":{"role":"admin"}}')),
    },
    ...(first
      ? [{ label: `duplicate ${first}`, contentType: json, body: b(withProperty(valid, first, 'null')) }]
      : []),
    {
      label: 'broken chunked encoding',
      contentType: json,
      body: b('zz\r\n{}\r\n0\r\n\r\n'),
      headers: [['Transfer-Encoding', 'chunked']],
    },
    {
      label: 'chunked and Content-Length together',
      contentType: json,
      body: b(`${validText.length.toString(16)}\r\n${validText}\r\n0\r\n\r\n`),
      headers: [
        ['Transfer-Encoding', 'chunked'],
        ['Content-Length', '3'],
      ],
    },
  ];
}

/** A multipart file part as a client writes it. */
export interface FilePart {
  /** The form field name (`file[]`, `file`). */
  name: string;
  filename: string;
  type: string;
  content: string | Buffer;
}

export const BOUNDARY = '----hostile-boundary-7MA4YWxkTrZu0gW';

/**
 * A multipart/form-data body's pieces in order: for each part its headers, its content and the line end, then the
 * closing boundary. Apart, a test can send them at its own pace; `multipartBody` joins them.
 */
export function multipartChunks(parts: FilePart[], boundary = BOUNDARY): Buffer[] {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.type}\r\n\r\n`,
        'utf8',
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return chunks;
}

export function multipartBody(parts: FilePart[], boundary = BOUNDARY): Buffer {
  return Buffer.concat(multipartChunks(parts, boundary));
}

/** Multipart that is not well formed, or goes past what an upload takes: once per upload route. */
export function hostileMultipart(valid: FilePart): RawBody[] {
  const type = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`;
  const whole = multipartBody([valid]);
  const b = (s: string) => Buffer.from(s, 'utf8');
  return [
    { label: 'truncated body', contentType: type(), body: whole.subarray(0, whole.length - 20) },
    { label: 'cut in the part headers', contentType: type(), body: whole.subarray(0, 40) },
    { label: 'no closing boundary', contentType: type(), body: b(`--${BOUNDARY}\r\n`) },
    { label: 'missing boundary parameter', contentType: 'multipart/form-data', body: whole },
    { label: 'empty boundary parameter', contentType: 'multipart/form-data; boundary=', body: whole },
    { label: 'boundary not in the body', contentType: type('other-boundary'), body: whole },
    {
      label: 'boundary over 70 characters',
      contentType: type('b'.repeat(200)),
      body: multipartBody([valid], 'b'.repeat(200)),
    },
    {
      label: 'quoted boundary with junk',
      contentType: `multipart/form-data; boundary="${BOUNDARY}"; x=%ZZ`,
      body: whole,
    },
    { label: 'no parts', contentType: type(), body: b(`--${BOUNDARY}--\r\n`) },
    { label: 'empty body', contentType: type(), body: Buffer.alloc(0) },
    {
      label: 'part without Content-Disposition',
      contentType: type(),
      body: b(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`),
    },
    {
      label: 'a field, not a file',
      contentType: type(),
      body: b(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${valid.name}"\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`,
      ),
    },
    {
      label: 'part headers over 16 KB',
      contentType: type(),
      body: b(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${valid.name}"; filename="a.txt"\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\nhi\r\n--${BOUNDARY}--\r\n`,
      ),
    },
    {
      label: 'eleven files',
      contentType: type(),
      body: multipartBody(Array.from({ length: 11 }, () => valid)),
    },
    {
      label: 'thirty fields',
      contentType: type(),
      body: b(
        Array.from(
          { length: 30 },
          (_, i) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
        ).join('') + `--${BOUNDARY}--\r\n`,
      ),
    },
    {
      label: 'file over 25 MB',
      contentType: type(),
      body: multipartBody([{ ...valid, content: Buffer.alloc(25 * 1024 * 1024 + 1, 0x61) }]),
    },
    { label: 'JSON instead', contentType: 'application/json', body: b('{"file":"x"}') },
    {
      label: 'broken chunked encoding',
      contentType: type(),
      body: b('zz\r\n'),
      headers: [['Transfer-Encoding', 'chunked']],
    },
  ];
}
