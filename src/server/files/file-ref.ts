import type { FileRef } from '../../shared/api/knowledge.ts';
import { href } from '../../shared/paths.ts';
import type { FileRow } from '../db/tables.ts';

/** A stored file as the public API names it: where to download it, under its original name. */
export function presentFile(file: FileRow): FileRef {
  return {
    id: file.id,
    original_name: file.original_name,
    file_size: Number(file.size),
    link: href.file(file.id, file.original_name),
  };
}
