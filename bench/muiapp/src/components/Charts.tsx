import { useMemo, useState } from 'react';
import { Box, Tooltip, Typography, useTheme } from '@mui/material';

function scale(values: number[], height: number, pad = 0): (v: number) => number {
  const max = Math.max(1, ...values);
  return (v) => height - pad - (v / max) * (height - 2 * pad);
}

/** A small line of the values, in the current color. */
export function Sparkline({ values }: { values: number[] }) {
  const w = 96;
  const h = 32;
  const y = scale(values, h, 2);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const d = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" viewBox={`0 0 ${w} ${h}`} aria-hidden>
      <path d={d} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" />
    </svg>
  );
}

interface AreaChartProps {
  values: number[];
  labels: string[];
  format: (v: number) => string;
  height?: number;
}

/** An area chart with a grid, axis labels and a tooltip per point. */
export function AreaChart({ values, labels, format, height = 240 }: AreaChartProps) {
  const theme = useTheme();
  const [hover, setHover] = useState<number | null>(null);
  const w = 720;
  const left = 48;
  const bottom = 24;
  const plotH = height - bottom;
  const y = useMemo(() => scale(values, plotH, 8), [values, plotH]);
  const step = (w - left) / Math.max(1, values.length - 1);
  const x = (i: number) => left + i * step;
  const line = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = `${line} L${x(values.length - 1)},${plotH} L${left},${plotH} Z`;
  const max = Math.max(1, ...values);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const color = theme.palette.primary.main;
  return (
    <Box sx={{ position: 'relative' }}>
      <svg className="chart" viewBox={`0 0 ${w} ${height}`} role="img" aria-label="revenue chart" onMouseLeave={() => setHover(null)}>
        <g className="grid">
          {ticks.map((t) => (
            <line key={t} x1={left} x2={w} y1={y(t)} y2={y(t)} />
          ))}
        </g>
        <g className="axis">
          {ticks.map((t) => (
            <text key={t} x={left - 8} y={y(t) + 3} textAnchor="end">
              {format(t)}
            </text>
          ))}
          {labels.map((l, i) =>
            i % Math.ceil(labels.length / 8) === 0 ? (
              <text key={l + i} x={x(i)} y={height - 6} textAnchor="middle">
                {l}
              </text>
            ) : null,
          )}
        </g>
        <path className="area" d={area} fill={color} />
        <path className="line" d={line} stroke={color} />
        {values.map((v, i) => (
          <rect key={i} x={x(i) - step / 2} y={0} width={step} height={plotH} fill="transparent" onMouseEnter={() => setHover(i)} />
        ))}
        {hover !== null && <circle cx={x(hover)} cy={y(values[hover])} r={5} fill={theme.palette.background.paper} stroke={color} strokeWidth={2} />}
      </svg>
      {hover !== null && (
        <Typography variant="caption" sx={{ position: 'absolute', top: 0, right: 0, px: 1, py: 0.5, borderRadius: 1, bgcolor: 'action.hover' }}>
          {labels[hover]}: {format(values[hover])}
        </Typography>
      )}
    </Box>
  );
}

interface BarChartProps {
  items: { label: string; value: number }[];
  format: (v: number) => string;
}

/** Horizontal bars, one per item, with the value in a tooltip. */
export function BarChart({ items, format }: BarChartProps) {
  const theme = useTheme();
  const max = Math.max(1, ...items.map((i) => i.value));
  const palette = [theme.palette.primary.main, theme.palette.secondary.main, theme.palette.warning.main, theme.palette.success.main, theme.palette.info.main, theme.palette.error.main];
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {items.map((item, i) => (
        <Box key={item.label}>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
            <Typography variant="body2">{item.label}</Typography>
            <Typography variant="body2" color="text.secondary">
              {format(item.value)}
            </Typography>
          </Box>
          <Tooltip title={`${item.label}: ${format(item.value)}`} placement="top">
            <Box className="bar" sx={{ height: 10, borderRadius: 5, width: `${(item.value / max) * 100}%`, bgcolor: palette[i % palette.length], transition: 'width .4s' }} />
          </Tooltip>
        </Box>
      ))}
    </Box>
  );
}

/** A ring showing a share between 0 and 1. */
export function Donut({ share, label, size = 120 }: { share: number; label: string; size?: number }) {
  const theme = useTheme();
  const r = 42;
  const c = 2 * Math.PI * r;
  return (
    <Box sx={{ position: 'relative', width: size, height: size }}>
      <svg viewBox="0 0 100 100" width={size} height={size}>
        <circle cx={50} cy={50} r={r} fill="none" stroke={theme.palette.action.hover} strokeWidth={12} />
        <circle cx={50} cy={50} r={r} fill="none" stroke={theme.palette.secondary.main} strokeWidth={12} strokeDasharray={`${c * share} ${c}`} transform="rotate(-90 50 50)" strokeLinecap="round" />
      </svg>
      <Box sx={{ position: 'absolute', inset: 0, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center' }}>
        <Typography variant="h6">{Math.round(share * 100)}%</Typography>
        <Typography variant="caption" color="text.secondary">
          {label}
        </Typography>
      </Box>
    </Box>
  );
}
