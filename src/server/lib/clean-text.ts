/* eslint-disable no-control-regex -- matching control characters is what this module is for */
// Control characters (C0, C1) and the invisible marks that hide or reorder what others read (zero-width, bidi).
const INVISIBLE_KEEPING_LINES =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Text as a person typed it, normalised, without invisible characters; line breaks kept only where asked. */
export function cleanText(text: string, multiline: boolean): string {
  const normalized = text.normalize('NFC').replace(/\r\n?/g, '\n');
  return normalized.replace(multiline ? INVISIBLE_KEEPING_LINES : INVISIBLE, '').trim();
}

/** A visitor's file name, safe to show and store: no path, no invisible characters, at most 255 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return (cleanText(base, false) || 'file').slice(0, 255);
}
