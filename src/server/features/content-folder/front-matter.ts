import YAML from 'yaml';

export class FolderError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface Document {
  data: Record<string, unknown>;
  body: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes a Markdown file strictly: a file that is not UTF-8 is an error, not mojibake in the help centre. */
export function decodeText(file: string, bytes: Uint8Array): string {
  try {
    return decoder
      .decode(bytes)
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n');
  } catch {
    throw new FolderError(file, 'is not valid UTF-8 text (save it as UTF-8)');
  }
}

export function parseDocument(file: string, text: string): Document {
  if (!text.startsWith('---\n')) return { data: {}, body: text };
  const match = /^---\n(?:([\s\S]*?)\n)?---[ \t]*(?:\n|$)/.exec(text);
  if (!match) throw new FolderError(file, 'front matter starts with --- but has no closing --- line');
  const yaml = match[1] ?? '';
  const body = text.slice(match[0].length).replace(/^\n/, '');
  let data: unknown;
  try {
    data = YAML.parse(yaml, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    const detail = error instanceof YAML.YAMLError ? yamlProblem(error) : String(error);
    throw new FolderError(file, `broken front matter: ${detail}`);
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new FolderError(file, 'front matter must be a set of key: value lines');
  }
  return { data: data as Record<string, unknown>, body };
}

function yamlProblem(error: InstanceType<typeof YAML.YAMLError>): string {
  const line = error.linePos?.[0]?.line;
  // Line numbers count from the file's first line, which is the opening ---.
  const first = error.message.split('\n')[0] ?? error.message;
  return line !== undefined
    ? `${first.replace(/ at line \d+, column \d+:?$/, '')} (line ${line + 1})`
    : first;
}

export function formatDocument(data: Record<string, unknown>, body: string): string {
  const clean = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
  const yaml = Object.keys(clean).length ? YAML.stringify(clean, { lineWidth: 0 }) : '';
  const text = `---\n${yaml}---\n`;
  return body ? `${text}\n${body.replace(/\n*$/, '\n')}` : text;
}

type Reader<T> = (file: string, key: string, value: unknown) => T;

export const readString: Reader<string | undefined> = (file, key, value) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number')
    throw new FolderError(file, `${key} must be text`);
  const text = String(value).trim();
  if (!text) throw new FolderError(file, `${key} must not be empty`);
  return text;
};

export const readInteger: Reader<number | undefined> = (file, key, value) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 1_000_000_000) {
    throw new FolderError(file, `${key} must be a whole number, not ${JSON.stringify(value)}`);
  }
  return value;
};

export const readBoolean: Reader<boolean | undefined> = (file, key, value) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw new FolderError(file, `${key} must be true or false, not ${JSON.stringify(value)}`);
  return value;
};

export const readStringList: Reader<string[]> = (file, key, value) => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || !item.trim())) {
    throw new FolderError(file, `${key} must be a list of file paths`);
  }
  return value.map((item: string) => item.trim());
};

export function checkKeys(file: string, data: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(data).filter((key) => !allowed.includes(key));
  if (unknown.length) {
    throw new FolderError(
      file,
      `unknown front matter key ${unknown.map((k) => `"${k}"`).join(', ')} (allowed: ${allowed.join(', ')})`,
    );
  }
}
