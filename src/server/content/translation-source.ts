/**
 * The snapshot a translation keeps of its source's text (`source_text`) when it is saved: the text a translator
 * worked from, compared with the source's text now to tell that the translation is outdated. JSON with its keys in
 * a fixed order, so the same text always gives the same snapshot.
 */
export const sectionSourceText = (source: { name: string }) => JSON.stringify({ name: source.name });

export const categorySourceText = (source: { name: string; description: string }) =>
  JSON.stringify({ name: source.name, description: source.description });

export const articleSourceText = (source: { title: string; body_html: string }) =>
  JSON.stringify({ title: source.title, body_html: source.body_html });
