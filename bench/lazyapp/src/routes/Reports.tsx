import { useMemo, useState } from 'react';
import { Card, Stat } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { formatCount, formatDate, formatMoney, percent } from '../components/format';
import { sales, type Sale } from './salesData';
import './Reports.css';

// The heavy route: a generated table of sales (salesData.ts), grouped,
// charted and listed. Loaded with import() on first visit.

type Group = 'region' | 'product' | 'channel' | 'month';

function groupBy(rows: Sale[], key: Group): { key: string; total: number; count: number }[] {
  const m = new Map<string, { total: number; count: number }>();
  for (const r of rows) {
    const k = key === 'month' ? r.date.slice(0, 7) : r[key];
    const g = m.get(k) ?? { total: 0, count: 0 };
    g.total += r.quantity * r.price;
    g.count += 1;
    m.set(k, g);
  }
  return [...m.entries()].map(([k, g]) => ({ key: k, ...g })).sort((a, b) => b.total - a.total);
}

function Chart({ data }: { data: { key: string; total: number }[] }) {
  const max = Math.max(1, ...data.map((d) => d.total));
  return (
    <>
      <div className="reports-chart">
        {data.map((d) => (
          <div key={d.key} className="bar" title={`${d.key}: ${formatMoney(d.total)}`} style={{ height: `${(d.total / max) * 100}%` }} />
        ))}
      </div>
      <div className="reports-legend">
        <span>{data[0]?.key}</span>
        <span>{data[data.length - 1]?.key}</span>
      </div>
    </>
  );
}

const columns: Column<Sale>[] = [
  { key: 'id', label: '#', align: 'right' },
  { key: 'date', label: 'Date', format: (v) => formatDate(String(v)) },
  { key: 'region', label: 'Region' },
  { key: 'product', label: 'Product' },
  { key: 'channel', label: 'Channel' },
  { key: 'quantity', label: 'Qty', align: 'right', format: (v) => formatCount(Number(v)) },
  { key: 'price', label: 'Unit price', align: 'right', format: (v) => formatMoney(Number(v)) },
];

export default function Reports() {
  const [group, setGroup] = useState<Group>('month');
  const [region, setRegion] = useState('all');
  const regions = useMemo(() => ['all', ...new Set(sales.map((s) => s.region))], []);
  const rows = useMemo(() => (region === 'all' ? sales : sales.filter((s) => s.region === region)), [region]);
  const grouped = useMemo(() => groupBy(rows, group), [rows, group]);
  const total = grouped.reduce((n, g) => n + g.total, 0);
  const units = rows.reduce((n, r) => n + r.quantity, 0);
  const top = grouped[0];
  return (
    <div data-route="route-reports">
      <h1>Reports</h1>
      <div className="reports-filters">
        <select value={group} onChange={(e) => setGroup(e.target.value as Group)}>
          <option value="month">By month</option>
          <option value="region">By region</option>
          <option value="product">By product</option>
          <option value="channel">By channel</option>
        </select>
        <select value={region} onChange={(e) => setRegion(e.target.value)}>
          {regions.map((r) => (
            <option key={r} value={r}>
              {r === 'all' ? 'All regions' : r}
            </option>
          ))}
        </select>
      </div>
      <div className="cards">
        <Card>
          <Stat label="Revenue" value={formatMoney(total)} />
        </Card>
        <Card>
          <Stat label="Units" value={formatCount(units)} />
        </Card>
        <Card>
          <Stat label={`Top ${group}: ${top?.key ?? '—'}`} value={top ? percent(top.total, total) : '—'} />
        </Card>
      </div>
      <Card title="Revenue">
        <Chart data={group === 'month' ? [...grouped].sort((a, b) => a.key.localeCompare(b.key)) : grouped} />
      </Card>
      <Card title="Sales">
        <DataTable rows={rows} columns={columns} />
      </Card>
    </div>
  );
}
