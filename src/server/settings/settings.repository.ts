import type { Executor, Tx } from '../db/database.ts';

export async function readSetting<T>(db: Executor, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : undefined;
}

/** The stored JSON text of the given settings, unparsed (the content revision digests the branding's text). */
export function readRawSettings(db: Executor, keys: string[]): Promise<{ key: string; value: string }[]> {
  return db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute();
}

export async function writeSetting(db: Executor, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
    .execute();
}

/** Stores a setting unless it is there already (a concurrent writer's value wins). */
export async function insertSettingIfAbsent(db: Executor, key: string, value: unknown): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/**
 * Takes a setting's row lock for the rest of the transaction with a no-op upsert, creating the row with `initial`
 * the first time (works on both databases, unlike SELECT ... FOR UPDATE).
 */
export async function lockSetting(trx: Tx, key: string, initial: unknown): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ key, value: JSON.stringify(initial) })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('settings.value') })))
    .execute();
}

/**
 * A random secret kept in the settings table. The first server to need it stores it; one that raced it loses the
 * insert and reads the winner's, so every server signs with the same key.
 */
export async function readOrCreateSecret(db: Executor, key: string, create: () => string): Promise<string> {
  const stored = await readSetting<string>(db, key);
  if (stored) return stored;
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(create()) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const secret = await readSetting<string>(db, key);
  if (!secret) throw new Error(`setting ${key} could not be stored`);
  return secret;
}
