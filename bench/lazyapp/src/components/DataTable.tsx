import { useMemo, useState } from 'react';
import { Button } from './Button';

// A sortable, filterable, paged table: imported by the lazy routes only,
// so it belongs in none of the files the home view loads.

export type Column<T> = {
  key: keyof T & string;
  label: string;
  align?: 'left' | 'right';
  format?: (v: T[keyof T], row: T) => string;
};

type Sort<T> = { key: keyof T & string; dir: 1 | -1 };

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function DataTable<T extends Record<string, unknown>>({
  rows,
  columns,
  pageSize = 25,
  searchable = true,
}: {
  rows: T[];
  columns: Column<T>[];
  pageSize?: number;
  searchable?: boolean;
}) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort<T> | null>(null);
  const [page, setPage] = useState(0);

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return rows;
    return rows.filter((r) => columns.some((c) => String(r[c.key]).toLowerCase().includes(q)));
  }, [rows, columns, query]);

  const sorted = useMemo(() => {
    if (!sort) return filtered;
    return [...filtered].sort((a, b) => compare(a[sort.key], b[sort.key]) * sort.dir);
  }, [filtered, sort]);

  const pages = Math.max(1, Math.ceil(sorted.length / pageSize));
  const current = Math.min(page, pages - 1);
  const visible = sorted.slice(current * pageSize, (current + 1) * pageSize);

  const toggle = (key: keyof T & string) =>
    setSort((s) => (s && s.key === key ? (s.dir === 1 ? { key, dir: -1 } : null) : { key, dir: 1 }));

  return (
    <div className="data-table">
      {searchable && (
        <input
          className="data-table-search"
          placeholder="Filter…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setPage(0);
          }}
        />
      )}
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={{ textAlign: c.align ?? 'left' }} onClick={() => toggle(c.key)}>
                {c.label}
                {sort?.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visible.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key} style={{ textAlign: c.align ?? 'left' }}>
                  {c.format ? c.format(r[c.key], r) : String(r[c.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="data-table-pager">
        <Button variant="secondary" disabled={current === 0} onClick={() => setPage(current - 1)}>
          Previous
        </Button>
        <span>
          {' '}
          Page {current + 1} of {pages} ({sorted.length} rows){' '}
        </span>
        <Button variant="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
          Next
        </Button>
      </div>
    </div>
  );
}
