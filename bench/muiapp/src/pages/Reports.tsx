import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  Divider,
  FormControl,
  Grid,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import InsightsIcon from '@mui/icons-material/Insights';
import TimelineIcon from '@mui/icons-material/Timeline';
import PublicIcon from '@mui/icons-material/Public';
import CategoryIcon from '@mui/icons-material/Category';
import PrintIcon from '@mui/icons-material/Print';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { PageHeader } from '../components/PageHeader';
import { AreaChart, BarChart, Donut } from '../components/Charts';
import { customerById, customers, dailyRevenue, orders, revenueByCategory } from '../data/mock';
import { formatCompact, formatMoney } from '../data/format';

type Channel = 'all' | 'web' | 'mobile' | 'partner' | 'store';

function byCountry(channel: Channel) {
  const sums = new Map<string, { cents: number; orders: number }>();
  for (const o of orders) {
    if (channel !== 'all' && o.channel !== channel) continue;
    const country = customerById.get(o.customerId)?.country ?? 'Unknown';
    const s = sums.get(country) ?? { cents: 0, orders: 0 };
    s.cents += o.totalCents;
    s.orders += 1;
    sums.set(country, s);
  }
  return [...sums].map(([country, s]) => ({ country, ...s })).sort((a, b) => b.cents - a.cents);
}

function weekly(values: number[]): number[] {
  const weeks: number[] = [];
  for (let i = 0; i < values.length; i += 7) weeks.push(values.slice(i, i + 7).reduce((a, b) => a + b, 0));
  return weeks;
}

export function Reports() {
  const [tab, setTab] = useState('revenue');
  const [channel, setChannel] = useState<Channel>('all');
  const countries = useMemo(() => byCountry(channel), [channel]);
  const total = countries.reduce((a, c) => a + c.cents, 0);
  const weeks = weekly(dailyRevenue(84));
  const refunded = orders.filter((o) => o.status === 'refunded').length / orders.length;
  const retention = customers.filter((c) => c.orders > 3).length / customers.length;

  return (
    <>
      <PageHeader
        title="Reports"
        subtitle="Quarter to date, all amounts in USD"
        trail={['Reports']}
        actions={
          <>
            <FormControl size="small" sx={{ minWidth: 160 }}>
              <InputLabel id="channel">Channel</InputLabel>
              <Select labelId="channel" label="Channel" value={channel} onChange={(e) => setChannel(e.target.value as Channel)}>
                <MenuItem value="all">All channels</MenuItem>
                <MenuItem value="web">Web</MenuItem>
                <MenuItem value="mobile">Mobile</MenuItem>
                <MenuItem value="partner">Partners</MenuItem>
                <MenuItem value="store">Stores</MenuItem>
              </Select>
            </FormControl>
            <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
              Print
            </Button>
          </>
        }
      />
      <Card>
        <Tabs value={tab} onChange={(_, v: string) => setTab(v)} variant="scrollable" scrollButtons="auto" sx={{ px: 2 }}>
          <Tab value="revenue" icon={<TimelineIcon />} iconPosition="start" label="Revenue" />
          <Tab value="geography" icon={<PublicIcon />} iconPosition="start" label="Geography" />
          <Tab value="categories" icon={<CategoryIcon />} iconPosition="start" label="Categories" />
          <Tab value="health" icon={<InsightsIcon />} iconPosition="start" label="Health" />
        </Tabs>
        <Divider />
        <CardContent>
          {tab === 'revenue' && (
            <>
              <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 2 }}>
                Weekly revenue, last 12 weeks
              </Typography>
              <AreaChart values={weeks} labels={weeks.map((_, i) => `W${i + 1}`)} format={(v) => formatCompact(v / 100)} height={280} />
            </>
          )}
          {tab === 'geography' && (
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Country</TableCell>
                  <TableCell align="right">Orders</TableCell>
                  <TableCell align="right">Revenue</TableCell>
                  <TableCell sx={{ width: '35%' }}>Share</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {countries.map((c) => (
                  <TableRow key={c.country} hover>
                    <TableCell>{c.country}</TableCell>
                    <TableCell align="right">{c.orders}</TableCell>
                    <TableCell align="right">{formatMoney(c.cents)}</TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <LinearProgress variant="determinate" value={(c.cents / total) * 100} sx={{ flexGrow: 1, height: 8, borderRadius: 4 }} />
                        <Typography variant="caption" sx={{ minWidth: 40, textAlign: 'right' }}>
                          {((c.cents / total) * 100).toFixed(1)}%
                        </Typography>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow>
                  <TableCell>Total</TableCell>
                  <TableCell align="right">{countries.reduce((a, c) => a + c.orders, 0)}</TableCell>
                  <TableCell align="right">{formatMoney(total)}</TableCell>
                  <TableCell />
                </TableRow>
              </TableFooter>
            </Table>
          )}
          {tab === 'categories' && <BarChart items={revenueByCategory().map((c) => ({ label: c.category, value: c.cents }))} format={formatMoney} />}
          {tab === 'health' && (
            <Grid container spacing={3}>
              {[
                { label: 'Retention', value: retention, good: true },
                { label: 'Refund rate', value: refunded, good: false },
                { label: 'On-time delivery', value: 0.93, good: true },
              ].map((m) => (
                <Grid key={m.label} size={{ xs: 12, md: 4 }}>
                  <Card>
                    <CardHeader title={m.label} avatar={m.good ? <ArrowUpwardIcon color="success" /> : <ArrowDownwardIcon color="error" />} />
                    <CardContent sx={{ display: 'flex', justifyContent: 'center' }}>
                      <Donut share={m.value} label={m.label.toLowerCase()} size={140} />
                    </CardContent>
                  </Card>
                </Grid>
              ))}
              <Grid size={12}>
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <CircularProgress size={20} />
                  <Typography variant="body2" color="text.secondary">
                    Recomputing the cohort table…
                  </Typography>
                  <Box sx={{ flexGrow: 1 }} />
                  <Button startIcon={<AutorenewIcon />}>Recompute</Button>
                </Stack>
              </Grid>
            </Grid>
          )}
        </CardContent>
      </Card>
    </>
  );
}
