import { useMemo, useState, type ChangeEvent, type MouseEvent } from 'react';
import {
  Box,
  Button,
  Card,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControl,
  IconButton,
  InputAdornment,
  InputLabel,
  ListItemIcon,
  Menu,
  MenuItem,
  Select,
  Stack,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import { alpha } from '@mui/material/styles';
import SearchIcon from '@mui/icons-material/Search';
import FilterListIcon from '@mui/icons-material/FilterList';
import DeleteIcon from '@mui/icons-material/Delete';
import PrintIcon from '@mui/icons-material/Print';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import VisibilityIcon from '@mui/icons-material/Visibility';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import CancelIcon from '@mui/icons-material/Cancel';
import CloseIcon from '@mui/icons-material/Close';
import AddIcon from '@mui/icons-material/Add';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import LanguageIcon from '@mui/icons-material/Language';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import HandshakeIcon from '@mui/icons-material/Handshake';
import StoreIcon from '@mui/icons-material/Store';
import { PageHeader } from '../components/PageHeader';
import { StatusChip, statusLabels } from '../components/StatusChip';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useNotify } from '../components/Notify';
import { customerById, orders as allOrders, productById, type Order, type OrderStatus } from '../data/mock';
import { formatDate, formatMoney, formatTime } from '../data/format';

type SortKey = 'id' | 'date' | 'customer' | 'status' | 'totalCents';
type Direction = 'asc' | 'desc';

const columns: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'id', label: 'Order' },
  { key: 'date', label: 'Date' },
  { key: 'customer', label: 'Customer' },
  { key: 'status', label: 'Status' },
  { key: 'totalCents', label: 'Total', numeric: true },
];

const channelIcon = {
  web: <LanguageIcon fontSize="small" />,
  mobile: <PhoneIphoneIcon fontSize="small" />,
  partner: <HandshakeIcon fontSize="small" />,
  store: <StoreIcon fontSize="small" />,
};

// Hidden on screen, read by screen readers (what @mui/utils's visuallyHidden is).
const visuallyHidden = { border: 0, clip: 'rect(0 0 0 0)', height: '1px', margin: '-1px', overflow: 'hidden', padding: 0, position: 'absolute', whiteSpace: 'nowrap', width: '1px' } as const;

const steps: OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered'];

function sortValue(o: Order, key: SortKey): string | number {
  if (key === 'customer') return customerById.get(o.customerId)?.name ?? '';
  return o[key];
}

export function Orders() {
  const notify = useNotify();
  const [rows, setRows] = useState(allOrders);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<OrderStatus | 'all'>('all');
  const [sort, setSort] = useState<{ key: SortKey; dir: Direction }>({ key: 'date', dir: 'desc' });
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [detail, setDetail] = useState<Order | null>(null);
  const [rowMenu, setRowMenu] = useState<{ anchor: HTMLElement; order: Order } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return rows
      .filter((o) => status === 'all' || o.status === status)
      .filter((o) => !q || o.id.toLowerCase().includes(q) || (customerById.get(o.customerId)?.name.toLowerCase().includes(q) ?? false))
      .sort((a, b) => {
        const x = sortValue(a, sort.key);
        const y = sortValue(b, sort.key);
        const cmp = x < y ? -1 : x > y ? 1 : 0;
        return sort.dir === 'asc' ? cmp : -cmp;
      });
  }, [rows, query, status, sort]);
  const visible = filtered.slice(page * perPage, page * perPage + perPage);

  const toggleSort = (key: SortKey) => setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : 'asc' }));
  const toggleRow = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allVisibleSelected = visible.length > 0 && visible.every((o) => selected.has(o.id));
  const toggleAllVisible = (e: ChangeEvent<HTMLInputElement>) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const o of visible) {
        if (e.target.checked) next.add(o.id);
        else next.delete(o.id);
      }
      return next;
    });
  const removeSelected = () => {
    const before = rows;
    setRows(rows.filter((o) => !selected.has(o.id)));
    notify(`${selected.size} orders deleted`, 'info', () => setRows(before));
    setSelected(new Set());
  };
  const openRowMenu = (order: Order) => (e: MouseEvent<HTMLElement>) => setRowMenu({ anchor: e.currentTarget, order });
  const markShipped = (order: Order) => {
    setRows((rs) => rs.map((o) => (o.id === order.id ? { ...o, status: 'shipped' } : o)));
    notify(`${order.id} marked as shipped`);
  };

  return (
    <>
      <PageHeader
        title="Orders"
        subtitle={`${filtered.length} of ${rows.length} orders`}
        trail={['Commerce', 'Orders']}
        actions={
          <>
            <Button variant="outlined" startIcon={<FileDownloadIcon />}>
              Export CSV
            </Button>
            <Button variant="contained" startIcon={<AddIcon />}>
              New order
            </Button>
          </>
        }
      />
      <Card>
        <Toolbar
          sx={[
            { pl: { sm: 2 }, pr: { xs: 1, sm: 1 }, gap: 2, flexWrap: 'wrap', py: 1 },
            selected.size > 0 && { bgcolor: (t) => alpha(t.palette.primary.main, t.palette.action.activatedOpacity) },
          ]}
        >
          {selected.size > 0 ? (
            <>
              <Typography sx={{ flex: '1 1 100%' }} color="inherit" variant="subtitle1">
                {selected.size} selected
              </Typography>
              <Tooltip title="Print packing slips">
                <IconButton>
                  <PrintIcon />
                </IconButton>
              </Tooltip>
              <Tooltip title="Delete">
                <IconButton onClick={() => setConfirmDelete(true)}>
                  <DeleteIcon />
                </IconButton>
              </Tooltip>
            </>
          ) : (
            <>
              <TextField
                placeholder="Search by order or customer"
                value={query}
                onChange={(e) => {
                  setQuery(e.target.value);
                  setPage(0);
                }}
                sx={{ minWidth: 280 }}
                slotProps={{
                  input: {
                    startAdornment: (
                      <InputAdornment position="start">
                        <SearchIcon />
                      </InputAdornment>
                    ),
                  },
                }}
              />
              <FormControl size="small" sx={{ minWidth: 160 }}>
                <InputLabel id="status-filter">Status</InputLabel>
                <Select
                  labelId="status-filter"
                  label="Status"
                  value={status}
                  onChange={(e) => {
                    setStatus(e.target.value as OrderStatus | 'all');
                    setPage(0);
                  }}
                >
                  <MenuItem value="all">All statuses</MenuItem>
                  {(Object.keys(statusLabels) as OrderStatus[]).map((s) => (
                    <MenuItem key={s} value={s}>
                      {statusLabels[s]}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Box sx={{ flexGrow: 1 }} />
              {status !== 'all' && <Chip label={statusLabels[status]} onDelete={() => setStatus('all')} icon={<FilterListIcon />} />}
            </>
          )}
        </Toolbar>
        <TableContainer>
          <Table size="medium" aria-label="orders">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox indeterminate={!allVisibleSelected && visible.some((o) => selected.has(o.id))} checked={allVisibleSelected} onChange={toggleAllVisible} slotProps={{ input: { 'aria-label': 'select all visible orders' } }} />
                </TableCell>
                {columns.map((c) => (
                  <TableCell key={c.key} align={c.numeric ? 'right' : 'left'} sortDirection={sort.key === c.key ? sort.dir : false}>
                    <TableSortLabel active={sort.key === c.key} direction={sort.key === c.key ? sort.dir : 'asc'} onClick={() => toggleSort(c.key)}>
                      {c.label}
                      {sort.key === c.key ? (
                        <Box component="span" sx={visuallyHidden}>
                          {sort.dir === 'desc' ? 'sorted descending' : 'sorted ascending'}
                        </Box>
                      ) : null}
                    </TableSortLabel>
                  </TableCell>
                ))}
                <TableCell>Channel</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {visible.map((o) => {
                const c = customerById.get(o.customerId);
                const isSelected = selected.has(o.id);
                return (
                  <TableRow key={o.id} hover selected={isSelected} onClick={() => toggleRow(o.id)} sx={{ cursor: 'pointer' }}>
                    <TableCell padding="checkbox">
                      <Checkbox checked={isSelected} slotProps={{ input: { 'aria-label': `select ${o.id}` } }} />
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{o.id}</TableCell>
                    <TableCell>
                      {formatDate(o.date)}
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {formatTime(o.date)}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      {c?.name}
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {c?.company}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <StatusChip status={o.status} />
                    </TableCell>
                    <TableCell align="right">{formatMoney(o.totalCents)}</TableCell>
                    <TableCell>
                      <Tooltip title={o.channel}>{channelIcon[o.channel]}</Tooltip>
                    </TableCell>
                    <TableCell align="right" onClick={(e) => e.stopPropagation()}>
                      <IconButton size="small" aria-label={`actions for ${o.id}`} onClick={openRowMenu(o)}>
                        <MoreVertIcon fontSize="small" />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                );
              })}
              {visible.length === 0 && (
                <TableRow>
                  <TableCell colSpan={8} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                    No orders match these filters.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={filtered.length}
          page={page}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={perPage}
          onRowsPerPageChange={(e) => {
            setPerPage(parseInt(e.target.value, 10));
            setPage(0);
          }}
          rowsPerPageOptions={[10, 25, 50]}
        />
      </Card>

      <Menu anchorEl={rowMenu?.anchor} open={rowMenu !== null} onClose={() => setRowMenu(null)}>
        <MenuItem
          onClick={() => {
            setDetail(rowMenu!.order);
            setRowMenu(null);
          }}
        >
          <ListItemIcon>
            <VisibilityIcon fontSize="small" />
          </ListItemIcon>
          View details
        </MenuItem>
        <MenuItem
          onClick={() => {
            void navigator.clipboard?.writeText(rowMenu!.order.id);
            notify('Order number copied');
            setRowMenu(null);
          }}
        >
          <ListItemIcon>
            <ContentCopyIcon fontSize="small" />
          </ListItemIcon>
          Copy number
        </MenuItem>
        <MenuItem
          disabled={rowMenu?.order.status !== 'paid'}
          onClick={() => {
            markShipped(rowMenu!.order);
            setRowMenu(null);
          }}
        >
          <ListItemIcon>
            <LocalShippingIcon fontSize="small" />
          </ListItemIcon>
          Mark as shipped
        </MenuItem>
        <Divider />
        <MenuItem sx={{ color: 'error.main' }} onClick={() => setRowMenu(null)}>
          <ListItemIcon>
            <CancelIcon fontSize="small" color="error" />
          </ListItemIcon>
          Cancel order
        </MenuItem>
      </Menu>

      <Dialog open={detail !== null} onClose={() => setDetail(null)} maxWidth="md" fullWidth>
        {detail && <OrderDetail order={detail} onClose={() => setDetail(null)} />}
      </Dialog>

      <ConfirmDialog
        open={confirmDelete}
        title="Delete orders?"
        text={`${selected.size} orders will be removed from the list. You can undo this right after.`}
        confirm="Delete"
        onConfirm={removeSelected}
        onClose={() => setConfirmDelete(false)}
      />
    </>
  );
}

function OrderDetail({ order, onClose }: { order: Order; onClose: () => void }) {
  const c = customerById.get(order.customerId);
  const active = Math.max(0, steps.indexOf(order.status));
  const failed = order.status === 'cancelled' || order.status === 'refunded';
  return (
    <>
      <DialogTitle sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        Order {order.id}
        <IconButton aria-label="close" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <Stepper activeStep={failed ? 1 : active + 1} alternativeLabel sx={{ mb: 3 }}>
          {steps.map((s, i) => (
            <Step key={s}>
              <StepLabel error={failed && i === 1} optional={failed && i === 1 ? <Typography variant="caption" color="error">{statusLabels[order.status]}</Typography> : undefined}>
                {statusLabels[s]}
              </StepLabel>
            </Step>
          ))}
        </Stepper>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          <Box sx={{ flex: 2 }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Product</TableCell>
                  <TableCell align="right">Qty</TableCell>
                  <TableCell align="right">Price</TableCell>
                  <TableCell align="right">Amount</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {order.lines.map((l, i) => (
                  <TableRow key={i}>
                    <TableCell>{productById.get(l.productId)?.name}</TableCell>
                    <TableCell align="right">{l.quantity}</TableCell>
                    <TableCell align="right">{formatMoney(l.priceCents)}</TableCell>
                    <TableCell align="right">{formatMoney(l.priceCents * l.quantity)}</TableCell>
                  </TableRow>
                ))}
                <TableRow>
                  <TableCell colSpan={3} sx={{ fontWeight: 700 }}>
                    Total
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    {formatMoney(order.totalCents)}
                  </TableCell>
                </TableRow>
              </TableBody>
            </Table>
          </Box>
          <Box sx={{ flex: 1 }}>
            <Typography variant="overline" color="text.secondary">
              Customer
            </Typography>
            <Typography>{c?.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {c?.email}
              <br />
              {c?.city}, {c?.country}
            </Typography>
            <Typography variant="overline" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
              Shipping
            </Typography>
            <Typography>{order.shipping}</Typography>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<PrintIcon />}>Print invoice</Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </>
  );
}
