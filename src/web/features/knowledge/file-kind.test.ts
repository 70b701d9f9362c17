import { describe, expect, it } from 'vitest';
import { fileKind } from './file-kind.ts';

describe('fileKind', () => {
  it.each([
    ['Installation guide.PDF', 'pdf', 'PDF'],
    ['wiring.diagram.png', 'image', 'PNG'],
    ['prices.xlsx', 'sheet', 'XLSX'],
    ['export.csv', 'sheet', 'CSV'],
    ['letter.docx', 'doc', 'DOCX'],
    ['logs.tar.gz', 'archive', 'GZ'],
    ['notes.txt', 'text', 'TXT'],
    ['firmware.bin', 'other', 'BIN'],
    ['README', 'other', 'FILE'],
    ['.hidden', 'other', 'FILE'],
    ['strange.extension', 'other', 'FILE'],
  ])('%s is %s, labelled %s', (name, kind, label) => {
    expect(fileKind(name)).toEqual({ kind, label });
  });
});
