export type FileKind = 'pdf' | 'image' | 'sheet' | 'doc' | 'archive' | 'text' | 'other';

const KINDS: Record<string, FileKind> = {};
const add = (kind: FileKind, extensions: string) => {
  for (const extension of extensions.split(' ')) KINDS[extension] = kind;
};
add('pdf', 'pdf');
add('image', 'png jpg jpeg gif webp svg bmp tif tiff heic avif ico');
add('sheet', 'xls xlsx xlsm csv tsv ods numbers');
add('doc', 'doc docx odt rtf pages ppt pptx odp key');
add('archive', 'zip rar 7z tar gz tgz bz2 xz zst');
add('text', 'txt md log json xml yaml yml ini cfg conf');

/** What a file is, by its name's extension, and the short label its icon shows (`PDF`, `XLSX`; `FILE` without one). */
export function fileKind(name: string): { kind: FileKind; label: string } {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const kind = KINDS[extension] ?? 'other';
  const label = /^[a-z0-9]{1,4}$/.test(extension) ? extension.toUpperCase() : 'FILE';
  return { kind, label };
}
