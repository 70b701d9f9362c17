import { readJson, storageKeys, writeItem } from '../../lib/storage.ts';

/** The articles answered, and the day (UTC, as the server counts one answer a day) they were answered on. */
interface Answered {
  day: string;
  ids: number[];
}

const today = () => new Date().toISOString().slice(0, 10);

function answered(): Answered {
  const stored = readJson<Partial<Answered>>(storageKeys.feedbackAnswers, {});
  return stored.day === today() && Array.isArray(stored.ids)
    ? { day: stored.day, ids: stored.ids }
    : { day: today(), ids: [] };
}

/** Whether this browser answered the article today: the page then thanks instead of asking again. */
export const answeredToday = (articleId: number) => answered().ids.includes(articleId);

export function rememberAnswer(articleId: number): void {
  const { day, ids } = answered();
  if (ids.includes(articleId)) return;
  writeItem(storageKeys.feedbackAnswers, JSON.stringify({ day, ids: [...ids, articleId].slice(-200) }));
}
