import { describe, expect, it } from 'vitest';
import type { AdminCategory } from '../../../../shared/api/admin.ts';
import {
  categoryDraftToOffer,
  categoryUpdateOf,
  categoryValuesOf,
  checkCategory,
  hasChanges,
  writeCategoryDraft,
} from './category-values.ts';

const category: AdminCategory = {
  id: 4,
  section_id: 1,
  parent_id: null,
  name: 'Routers',
  visibility: 'everyone',
  description: '<p>All about routers.</p>',
  position: 0,
  icon_type: 'file',
  font_icon: null,
  icon_url: '/files/9/router.png',
  updated_at: '2025-01-01T00:00:00.000Z',
};

const saved = categoryValuesOf(category);

describe('category values', () => {
  it('sends only what changed, so an untouched description stays as stored', () => {
    expect(categoryUpdateOf(saved, saved)).toEqual({});
    expect(hasChanges(saved, saved)).toBe(false);
    expect(categoryUpdateOf({ ...saved, name: '  Routers and mesh ' }, saved)).toEqual({
      name: 'Routers and mesh',
    });
    expect(categoryUpdateOf({ ...saved, description: '<p>New.</p>' }, saved)).toEqual({
      description: '<p>New.</p>',
    });
  });

  it('sends the icon of the chosen kind only, and removes it with none', () => {
    // The stored image, chosen again after trying a font icon: nothing to send.
    expect(categoryUpdateOf({ ...saved, font_icon: 'fa-wifi' }, saved)).toEqual({});
    expect(categoryUpdateOf({ ...saved, icon_file_id: 12, icon_url: '/files/12/new.png' }, saved)).toEqual({
      icon_file_id: 12,
    });
    expect(categoryUpdateOf({ ...saved, icon_type: 'font', font_icon: ' fa-wifi ' }, saved)).toEqual({
      font_icon: 'fa-wifi',
    });
    expect(categoryUpdateOf({ ...saved, icon_type: 'none' }, saved)).toEqual({
      font_icon: null,
      icon_file_id: null,
    });
    const font = { ...saved, icon_type: 'font' as const, font_icon: 'fa-wifi' };
    expect(categoryUpdateOf(font, font)).toEqual({});
    expect(categoryUpdateOf({ ...font, font_icon: 'fa-router' }, font)).toEqual({ font_icon: 'fa-router' });
    // Spaces are tidied, so the v4 form typed loosely is sent as the server stores it.
    expect(categoryUpdateOf({ ...font, font_icon: ' fa   fa-credit-card ' }, font)).toEqual({
      font_icon: 'fa fa-credit-card',
    });
    expect(categoryUpdateOf({ ...font, icon_type: 'none' }, { ...saved, icon_type: 'none' })).toEqual({});
  });

  it('says what the server would refuse before sending it', () => {
    expect(checkCategory(saved)).toEqual({});
    expect(Object.keys(checkCategory({ ...saved, name: ' ' }))).toEqual(['name']);
    expect(Object.keys(checkCategory({ ...saved, icon_type: 'font', font_icon: 'Fa Wifi' }))).toEqual([
      'font_icon',
    ]);
    expect(Object.keys(checkCategory({ ...saved, icon_type: 'font', font_icon: 'x'.repeat(101) }))).toEqual([
      'font_icon',
    ]);
    expect(
      Object.keys(checkCategory({ ...saved, icon_type: 'font', font_icon: 'fa-wifi" onclick="x' })),
    ).toEqual(['font_icon']);
    expect(checkCategory({ ...saved, icon_type: 'font', font_icon: ' fa  fa-credit-card ' })).toEqual({});
    const noImage = { ...saved, icon_type: 'file' as const, icon_url: null };
    expect(Object.keys(checkCategory(noImage))).toEqual(['icon_file_id']);
    // Choosing another kind is a change even before its image is there.
    expect(hasChanges(noImage, { ...saved, icon_type: 'none', icon_url: null })).toBe(true);
  });

  it('offers a kept draft back only while it differs from the server', () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    } as Storage;
    const edited = { ...saved, description: '<p>Unsaved words.</p>' };
    writeCategoryDraft(storage, 4, { values: edited, saved_at: '2025-01-02T00:00:00.000Z' });
    expect(categoryDraftToOffer(storage, 5, saved)).toBeNull();
    expect(categoryDraftToOffer(storage, 4, saved)?.values.description).toBe('<p>Unsaved words.</p>');
    expect(categoryDraftToOffer(storage, 4, edited)).toBeNull();
    expect(items.size).toBe(0);
    items.set('signpost.admin.category-draft.4', JSON.stringify({ values: { name: 1 }, saved_at: 'x' }));
    expect(categoryDraftToOffer(storage, 4, saved)).toBeNull();
  });
});
