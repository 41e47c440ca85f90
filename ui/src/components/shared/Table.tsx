import type { HTMLAttributes, ReactNode } from "react";

export type Column<T> = {
  header: string;
  render: (row: T) => ReactNode;
  className?: string;
};

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;

type Props<T> = {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  onRowClick?: (row: T) => void;
  rowAttributes?: (row: T) => RowAttributes;
  testId?: string;
  /** Shown in a full-width row when there are no rows. */
  empty?: ReactNode;
};

/** A dense data table; rows are clickable (and keyboard-activatable) when onRowClick is given. */
export function Table<T>({ columns, rows, rowKey, onRowClick, rowAttributes, testId, empty }: Props<T>) {
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} className={c.className}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty && (
          <tr className="table-empty">
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        )}
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            className={onRowClick ? "clickable" : undefined}
            tabIndex={onRowClick ? 0 : undefined}
            onClick={onRowClick && (() => onRowClick(row))}
            onKeyDown={onRowClick && ((e) => e.key === "Enter" && onRowClick(row))}
            {...rowAttributes?.(row)}
          >
            {columns.map((c) => (
              <td key={c.header} className={c.className}>
                {c.render(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
