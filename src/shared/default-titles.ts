import type { Language } from './constants.ts';

/**
 * What the help centre is called while the operator has set no title, in each interface language: the server
 * answers these in the branding (GET /api/settings/branding), and the admin app's preview shows them for an empty
 * field. The English heading is the specification's.
 */
export const DEFAULT_TITLES: Record<Language, { knowledge_title: string; site_title: string }> = {
  en: { knowledge_title: 'How can we help you?', site_title: 'Help centre' },
  ru: { knowledge_title: 'Чем мы можем вам помочь?', site_title: 'Справочный центр' },
  'pt-BR': { knowledge_title: 'Como podemos ajudar você?', site_title: 'Central de ajuda' },
  it: { knowledge_title: 'Come possiamo aiutarla?', site_title: 'Centro assistenza' },
  sk: { knowledge_title: 'Ako vám môžeme pomôcť?', site_title: 'Centrum pomoci' },
};
