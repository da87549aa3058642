import type { ReactElement } from 'react';
import { Chip } from '@mui/material';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import PaymentIcon from '@mui/icons-material/Payment';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import UndoIcon from '@mui/icons-material/Undo';
import BlockIcon from '@mui/icons-material/Block';
import type { OrderStatus } from '../data/mock';

const look: Record<OrderStatus, { color: 'default' | 'primary' | 'info' | 'success' | 'warning' | 'error'; icon: ReactElement; label: string }> = {
  pending: { color: 'warning', icon: <HourglassEmptyIcon />, label: 'Pending' },
  paid: { color: 'primary', icon: <PaymentIcon />, label: 'Paid' },
  shipped: { color: 'info', icon: <LocalShippingIcon />, label: 'Shipped' },
  delivered: { color: 'success', icon: <DoneAllIcon />, label: 'Delivered' },
  refunded: { color: 'default', icon: <UndoIcon />, label: 'Refunded' },
  cancelled: { color: 'error', icon: <BlockIcon />, label: 'Cancelled' },
};

export function StatusChip({ status }: { status: OrderStatus }) {
  const l = look[status];
  return <Chip size="small" variant="outlined" color={l.color} icon={l.icon} label={l.label} />;
}

export const statusLabels = Object.fromEntries(Object.entries(look).map(([k, v]) => [k, v.label])) as Record<OrderStatus, string>;
