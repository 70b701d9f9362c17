/** A data table's header row: a heading for each column, and a last one, heard but not seen, over rows' buttons. */
export function TableHead({
  columns,
  actions = false,
  numeric = [],
}: {
  columns: string[];
  actions?: boolean;
  /** Columns of numbers, whose headings stand over the right edge as the numbers do. */
  numeric?: string[];
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className={numeric.includes(column) ? 'number' : undefined}>
            {column}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
