import { useState, type ReactElement } from 'react';
import {
  Avatar,
  AvatarGroup,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Divider,
  Grid,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import ReceiptIcon from '@mui/icons-material/Receipt';
import GroupIcon from '@mui/icons-material/Group';
import SpeedIcon from '@mui/icons-material/Speed';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import DownloadIcon from '@mui/icons-material/Download';
import RefreshIcon from '@mui/icons-material/Refresh';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import BarChartIcon from '@mui/icons-material/BarChart';
import PieChartIcon from '@mui/icons-material/PieChart';
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import PersonIcon from '@mui/icons-material/Person';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import DnsIcon from '@mui/icons-material/Dns';
import { PageHeader } from '../components/PageHeader';
import { StatCard } from '../components/StatCard';
import { AreaChart, BarChart, Donut } from '../components/Charts';
import { StatusChip } from '../components/StatusChip';
import { activity, customerById, customers, dailyRevenue, orders, products, revenueByCategory, type Activity } from '../data/mock';
import { avatarColor, formatCompact, formatDate, formatMoney, formatTime, initials } from '../data/format';

const activityIcon: Record<Activity['kind'], ReactElement> = {
  order: <ShoppingBagIcon fontSize="small" />,
  customer: <PersonIcon fontSize="small" />,
  product: <LocalOfferIcon fontSize="small" />,
  system: <DnsIcon fontSize="small" />,
};

const ranges = { '7d': 7, '30d': 30, '90d': 90 } as const;
type Range = keyof typeof ranges;

function dayLabels(days: number): string[] {
  const end = Date.UTC(2026, 10, 30);
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86400000).toLocaleDateString('en-US', { month: 'short', day: 'numeric' }));
}

export function Dashboard() {
  const [range, setRange] = useState<Range>('30d');
  const [tab, setTab] = useState(0);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const days = ranges[range];
  const revenue = dailyRevenue(days);
  const previous = dailyRevenue(days * 2).slice(0, days);
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const change = (now: number, before: number) => (before === 0 ? 0 : (now - before) / before);
  const recent = orders.slice(0, 8);
  const activeShare = customers.filter((c) => c.active).length / customers.length;
  const lowStock = products.filter((p) => p.stock < 40).slice(0, 5);
  const byCategory = revenueByCategory().map((c) => ({ label: c.category, value: c.cents }));
  const topCustomers = [...customers].sort((a, b) => b.spentCents - a.spentCents).slice(0, 6);

  return (
    <>
      <PageHeader
        title="Good morning, Ada"
        subtitle="Here is what happened in your store over the last weeks."
        trail={['Dashboard']}
        actions={
          <>
            <Button variant="outlined" startIcon={<RefreshIcon />}>
              Refresh
            </Button>
            <Button variant="contained" startIcon={<DownloadIcon />}>
              Export
            </Button>
          </>
        }
      />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard label="Revenue" value={formatMoney(sum(revenue))} change={change(sum(revenue), sum(previous))} icon={<AttachMoneyIcon />} color="primary" series={revenue} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard label="Orders" value={formatCompact(orders.length)} change={0.084} icon={<ReceiptIcon />} color="secondary" series={revenue.map((v) => Math.sqrt(v))} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard label="Customers" value={formatCompact(customers.length)} change={0.031} icon={<GroupIcon />} color="success" series={revenue.map((_, i) => i * i)} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard label="Conversion" value="3.42%" change={-0.012} icon={<SpeedIcon />} color="warning" series={revenue.map((v, i) => v / (i + 1))} />
        </Grid>

        <Grid size={{ xs: 12, lg: 8 }}>
          <Card>
            <CardHeader
              title="Revenue"
              subheader={`${formatMoney(sum(revenue))} in the last ${days} days`}
              action={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <ToggleButtonGroup size="small" exclusive value={range} onChange={(_, v: Range | null) => v && setRange(v)}>
                    {(Object.keys(ranges) as Range[]).map((r) => (
                      <ToggleButton key={r} value={r}>
                        {r}
                      </ToggleButton>
                    ))}
                  </ToggleButtonGroup>
                  <IconButton aria-label="chart options" onClick={(e) => setMenu(e.currentTarget)}>
                    <MoreVertIcon />
                  </IconButton>
                </Stack>
              }
            />
            <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
              <MenuItem onClick={() => setMenu(null)}>Download CSV</MenuItem>
              <MenuItem onClick={() => setMenu(null)}>Download PNG</MenuItem>
              <MenuItem onClick={() => setMenu(null)}>Open in Reports</MenuItem>
            </Menu>
            <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ px: 2 }}>
              <Tab icon={<ShowChartIcon />} iconPosition="start" label="Trend" />
              <Tab icon={<BarChartIcon />} iconPosition="start" label="By category" />
              <Tab icon={<PieChartIcon />} iconPosition="start" label="Customers" />
            </Tabs>
            <Divider />
            <CardContent>
              {tab === 0 && <AreaChart values={revenue} labels={dayLabels(days)} format={(v) => formatCompact(v / 100)} />}
              {tab === 1 && <BarChart items={byCategory} format={formatMoney} />}
              {tab === 2 && (
                <Stack direction="row" spacing={4} sx={{ alignItems: 'center', justifyContent: 'center', py: 2 }}>
                  <Donut share={activeShare} label="active" />
                  <Box>
                    <Typography variant="h6">{customers.filter((c) => c.tier === 'enterprise').length} enterprise accounts</Typography>
                    <Typography color="text.secondary">{customers.filter((c) => c.tier === 'pro').length} on Pro, the rest on the free plan.</Typography>
                    <AvatarGroup max={6} sx={{ mt: 2, justifyContent: 'flex-end' }}>
                      {topCustomers.map((c) => (
                        <Avatar key={c.id} sx={{ bgcolor: avatarColor(c.name) }}>
                          {initials(c.name)}
                        </Avatar>
                      ))}
                    </AvatarGroup>
                  </Box>
                </Stack>
              )}
            </CardContent>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, lg: 4 }}>
          <Card sx={{ height: '100%' }}>
            <CardHeader title="Activity" subheader="Today" />
            <List dense sx={{ maxHeight: 360, overflowY: 'auto' }}>
              {activity.slice(0, 9).map((a) => (
                <ListItem key={a.id}>
                  <ListItemAvatar>
                    <Avatar sx={{ width: 32, height: 32, bgcolor: avatarColor(a.who) }}>{activityIcon[a.kind]}</Avatar>
                  </ListItemAvatar>
                  <ListItemText primary={`${a.who} ${a.what}`} secondary={formatTime(a.when)} />
                </ListItem>
              ))}
            </List>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, lg: 8 }}>
          <Card>
            <CardHeader
              title="Recent orders"
              action={
                <Button href="#/orders" endIcon={<OpenInNewIcon />}>
                  All orders
                </Button>
              }
            />
            <TableContainer>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>Order</TableCell>
                    <TableCell>Customer</TableCell>
                    <TableCell>Date</TableCell>
                    <TableCell>Status</TableCell>
                    <TableCell align="right">Total</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {recent.map((o) => {
                    const c = customerById.get(o.customerId);
                    return (
                      <TableRow key={o.id} hover>
                        <TableCell sx={{ fontFamily: 'monospace' }}>{o.id}</TableCell>
                        <TableCell>
                          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                            <Avatar sx={{ width: 24, height: 24, fontSize: 11, bgcolor: avatarColor(c?.name ?? '') }}>{initials(c?.name ?? '?')}</Avatar>
                            <span>{c?.name}</span>
                          </Stack>
                        </TableCell>
                        <TableCell>{formatDate(o.date)}</TableCell>
                        <TableCell>
                          <StatusChip status={o.status} />
                        </TableCell>
                        <TableCell align="right">{formatMoney(o.totalCents)}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, lg: 4 }}>
          <Card sx={{ height: '100%' }}>
            <CardHeader title="Low stock" subheader="Reorder soon" />
            <CardContent sx={{ display: 'grid', gap: 2 }}>
              {lowStock.map((p) => (
                <Box key={p.id}>
                  <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                    <Typography variant="body2">{p.name}</Typography>
                    <Tooltip title={`SKU ${p.sku}`}>
                      <Typography variant="body2" color={p.stock === 0 ? 'error' : 'text.secondary'}>
                        {p.stock === 0 ? 'out of stock' : `${p.stock} left`}
                      </Typography>
                    </Tooltip>
                  </Stack>
                  <LinearProgress variant="determinate" value={Math.min(100, (p.stock / 40) * 100)} color={p.stock < 10 ? 'error' : 'warning'} sx={{ mt: 0.5, height: 6, borderRadius: 3 }} />
                </Box>
              ))}
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}
