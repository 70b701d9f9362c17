import type { ColumnDataType, ColumnDefinitionBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

type ColumnArgs = [ColumnDataType, (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];

export function idColumn(dialect: Dialect): ColumnArgs {
  return dialect === 'postgres'
    ? ['integer', (c) => c.primaryKey().generatedByDefaultAsIdentity()]
    : ['integer', (c) => c.primaryKey().autoIncrement()];
}

/** Millisecond timestamps and byte sizes outgrow 32 bits. */
export function timeType(dialect: Dialect): ColumnDataType {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}
