/** A property's value: its text (a quoted string unescaped), and the domain it names, after its last @ outside quotes. */
export interface PropertyValue {
  text: string;
  domain: string;
}

/** One `method[/version]=result [reason=…] ptype.property=value …` of an Authentication-Results header. */
export interface AuthenticationResult {
  method: string;
  methodVersion: string | null;
  result: string;
  reason: string | null;
  /** By `ptype.property`, lower case; one value each. */
  props: Map<string, PropertyValue>;
}

export interface AuthenticationResults {
  authservId: string;
  version: string | null;
  results: AuthenticationResult[];
}

class Malformed extends Error {}

/** RFC 2045's token: printable ASCII but for the tspecials. */
const TOKEN_CHAR = /[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]/;
const KEYWORD_CHAR = /[A-Za-z0-9-]/;
/**
 * An unquoted property value: a token, or a local-part, an @ and a domain name (a local-part may hold `=`, `/`, `?`):
 * printable ASCII but for `"`, `(`, `)`, `;` and `\`.
 */
const PVALUE_CHAR = /[\x21\x23-\x27\x2a-\x3a\x3c-\x5b\x5d-\x7e]/;
const WHITESPACE = /[ \t\r\n]/;

/**
 * Reads an Authentication-Results header's value by RFC 8601's grammar, with its comments (nested, with escapes)
 * and quoted strings (with escapes) taken whole, so that no `;`, `=` or `(` inside one is read as the header's own.
 */
class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  private peek() {
    return this.text[this.at] ?? '';
  }

  atEnd() {
    return this.at >= this.text.length;
  }

  is(char: string) {
    return this.peek() === char;
  }

  expect(char: string) {
    if (!this.is(char)) throw new Malformed(`expected ${char} at ${this.at}`);
    this.at++;
  }

  /** Skips white space and comments; whether there were any. */
  cfws(): boolean {
    const start = this.at;
    for (;;) {
      if (WHITESPACE.test(this.peek())) this.at++;
      else if (this.is('(')) this.comment();
      else return this.at > start;
    }
  }

  private comment() {
    let depth = 0;
    do {
      const char = this.peek();
      if (char === '') throw new Malformed('unclosed comment');
      this.at++;
      if (char === '\\') {
        if (this.atEnd()) throw new Malformed('unclosed comment');
        this.at++;
      } else if (char === '(') depth++;
      else if (char === ')') depth--;
    } while (depth > 0);
  }

  private quotedString(): string {
    this.expect('"');
    let value = '';
    for (;;) {
      const char = this.peek();
      if (char === '') throw new Malformed('unclosed quoted string');
      this.at++;
      if (char === '"') return value;
      if (char === '\\') {
        if (this.atEnd()) throw new Malformed('unclosed quoted string');
        value += this.text[this.at++];
      } else value += char;
    }
  }

  private run(chars: RegExp): string {
    const start = this.at;
    while (!this.atEnd() && chars.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }

  keyword(): string {
    const word = this.run(KEYWORD_CHAR);
    if (!word) throw new Malformed(`expected a keyword at ${this.at}`);
    return word.toLowerCase();
  }

  digits(): string {
    const digits = this.run(/[0-9]/);
    if (!digits) throw new Malformed(`expected a number at ${this.at}`);
    return digits;
  }

  startsDigits() {
    return /[0-9]/.test(this.peek());
  }

  /** RFC 2045's value: a token or a quoted string. */
  value(): string {
    if (this.is('"')) return this.quotedString();
    const token = this.run(TOKEN_CHAR);
    if (!token) throw new Malformed(`expected a value at ${this.at}`);
    return token;
  }

  /** RFC 8601's pvalue: a value, or an address whose local-part may be quoted, or @ and a domain. */
  pvalue(): PropertyValue {
    this.cfws();
    const quoted = this.is('"') ? this.quotedString() : null;
    const rest = this.run(PVALUE_CHAR);
    if (quoted !== null && rest === '') return { text: quoted, domain: domainOf(quoted) };
    if (quoted !== null && !rest.startsWith('@'))
      throw new Malformed(`expected @ after a quoted local-part at ${this.at}`);
    if (rest === '') throw new Malformed(`expected a value at ${this.at}`);
    const text = quoted === null ? rest : `"${quoted.replace(/["\\]/g, '\\$&')}"${rest}`;
    return { text, domain: domainOf(rest) };
  }
}

/** A domain is never quoted and holds no @: the one after the last @ is the address's, whatever precedes it. */
const domainOf = (text: string) => text.slice(text.lastIndexOf('@') + 1).toLowerCase();

/** The authserv-id an Authentication-Results value starts with, or null when it starts with none. */
export function authservIdOf(value: string): string | null {
  try {
    const reader = new Reader(value);
    reader.cfws();
    return reader.value();
  } catch (error) {
    if (error instanceof Malformed) return null;
    throw error;
  }
}

/** An Authentication-Results header's value read by RFC 8601, or null when any of it does not follow the grammar. */
export function parseAuthenticationResults(value: string): AuthenticationResults | null {
  try {
    return parse(new Reader(value));
  } catch (error) {
    if (error instanceof Malformed) return null;
    throw error;
  }
}

function parse(reader: Reader): AuthenticationResults {
  reader.cfws();
  const authservId = reader.value();
  let version: string | null = null;
  if (reader.cfws() && reader.startsDigits()) {
    version = reader.digits();
    reader.cfws();
  }
  const results: AuthenticationResult[] = [];
  if (!reader.is(';')) throw new Malformed('expected ; after the authserv-id');
  while (reader.is(';')) {
    reader.expect(';');
    reader.cfws();
    const method = reader.keyword();
    reader.cfws();
    if (method === 'none' && results.length === 0 && !reader.is('=') && !reader.is('/')) {
      if (!reader.atEnd()) throw new Malformed('nothing may follow none');
      return { authservId, version, results };
    }
    results.push(resultOf(reader, method));
  }
  if (!reader.atEnd()) throw new Malformed('expected ; between results');
  return { authservId, version, results };
}

/** One resinfo after its method's name, up to the next `;` or the end. */
function resultOf(reader: Reader, method: string): AuthenticationResult {
  let methodVersion: string | null = null;
  if (reader.is('/')) {
    reader.expect('/');
    reader.cfws();
    methodVersion = reader.digits();
    reader.cfws();
  }
  reader.expect('=');
  reader.cfws();
  const found: AuthenticationResult = {
    method,
    methodVersion,
    result: reader.keyword(),
    reason: null,
    props: new Map(),
  };
  for (;;) {
    const spaced = reader.cfws();
    if (reader.atEnd() || reader.is(';')) return found;
    if (!spaced) throw new Malformed('expected a space before a property');
    const name = reader.keyword();
    reader.cfws();
    if (name === 'reason' && reader.is('=') && found.reason === null && found.props.size === 0) {
      reader.expect('=');
      reader.cfws();
      found.reason = reader.value();
      continue;
    }
    if (reader.is('=')) {
      // A property without its ptype (`action=none`, `compauth=pass`), outside RFC 8601 but what Microsoft's servers
      // write: read by the same rules, so it cannot hide a `;`, and kept under its bare name, which no rule reads;
      // `from=` is never `header.from`.
      reader.expect('=');
      if (found.props.has(name)) throw new Malformed(`${name} given twice`);
      found.props.set(name, reader.pvalue());
      continue;
    }
    reader.expect('.');
    reader.cfws();
    const key = `${name}.${reader.keyword()}`;
    reader.cfws();
    reader.expect('=');
    // Two values for one property would leave a reader to pick one: not read at all.
    if (found.props.has(key)) throw new Malformed(`${key} given twice`);
    found.props.set(key, reader.pvalue());
  }
}
