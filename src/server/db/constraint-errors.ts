/** Whether a query failed on a unique index or primary key, on either database. */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};
