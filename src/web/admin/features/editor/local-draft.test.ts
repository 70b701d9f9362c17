import { describe, expect, it } from 'vitest';
import type { AdminArticle } from '../../../../shared/api/admin.ts';
import {
  blankValues,
  clearLocalDraft,
  draftKey,
  draftToOffer,
  readLocalDraft,
  valuesOf,
  writeLocalDraft,
} from './local-draft.ts';

/** The Web Storage interface over a Map, as a browser's localStorage behaves. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const article: AdminArticle = {
  id: 7,
  section_id: 1,
  category_id: null,
  title: 'Reset the router',
  visibility: 'everyone',
  noindex: false,
  position: 0,
  published: true,
  can_create_issue: false,
  updated_at: '2025-01-01T00:00:00.000Z',
  body_html: '<p>Hold the button.</p>',
  lang: null,
  files: [
    { id: 3, name: 'manual.pdf', size: 2048, mime_type: 'application/pdf', url: '/files/3/manual.pdf' },
  ],
  revision_id: 12,
  translations: [],
  created_at: '2025-01-01T00:00:00.000Z',
};

describe('local drafts', () => {
  it('keeps unsaved work per article and offers it back while it differs from the server', () => {
    const storage = new MemoryStorage();
    const edited = { ...valuesOf(article), body_html: '<p>Hold the button for ten seconds.</p>' };
    writeLocalDraft(storage, 7, {
      values: edited,
      base_revision_id: 12,
      saved_at: '2025-01-02T00:00:00.000Z',
    });
    expect(storage.getItem(draftKey(8))).toBeNull();
    expect(draftToOffer(storage, 7, valuesOf(article))?.values.body_html).toBe(edited.body_html);
    // Reordered attachments are a change too.
    const twoFiles = { ...valuesOf(article), files: [...article.files, { ...article.files[0]!, id: 4 }] };
    const swapped = { ...twoFiles, files: [...twoFiles.files].reverse() };
    writeLocalDraft(storage, 7, { values: swapped, base_revision_id: 12, saved_at: 'x' });
    expect(draftToOffer(storage, 7, twoFiles)).not.toBeNull();
  });

  it('drops a draft that matches what the server has, and ignores what it cannot read', () => {
    const storage = new MemoryStorage();
    writeLocalDraft(storage, 7, { values: valuesOf(article), base_revision_id: 12, saved_at: 'x' });
    expect(draftToOffer(storage, 7, valuesOf(article))).toBeNull();
    expect(storage.getItem(draftKey(7))).toBeNull();
    storage.setItem(draftKey(null), '{not json');
    expect(readLocalDraft(storage, null)).toBeNull();
    storage.setItem(draftKey(null), JSON.stringify({ values: { title: 1 }, saved_at: 'x' }));
    expect(readLocalDraft(storage, null)).toBeNull();
    writeLocalDraft(storage, null, { values: blankValues(), base_revision_id: null, saved_at: 'x' });
    expect(readLocalDraft(storage, null)?.values.title).toBe('');
    clearLocalDraft(storage, null);
    expect(storage.length).toBe(0);
    // Without storage (private mode) nothing throws.
    expect(readLocalDraft(undefined, 7)).toBeNull();
  });
});
