import type { ReactElement } from 'react';
import DashboardIcon from '@mui/icons-material/Dashboard';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import PeopleIcon from '@mui/icons-material/People';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import InboxIcon from '@mui/icons-material/Inbox';
import AssessmentIcon from '@mui/icons-material/Assessment';
import SettingsIcon from '@mui/icons-material/Settings';

export type PageId = 'dashboard' | 'orders' | 'customers' | 'products' | 'inbox' | 'reports' | 'settings';

export interface Page {
  id: PageId;
  label: string;
  icon: ReactElement;
  section: 'Overview' | 'Commerce' | 'Workspace';
}

export const pages: Page[] = [
  { id: 'dashboard', label: 'Dashboard', icon: <DashboardIcon />, section: 'Overview' },
  { id: 'reports', label: 'Reports', icon: <AssessmentIcon />, section: 'Overview' },
  { id: 'orders', label: 'Orders', icon: <ShoppingCartIcon />, section: 'Commerce' },
  { id: 'customers', label: 'Customers', icon: <PeopleIcon />, section: 'Commerce' },
  { id: 'products', label: 'Products', icon: <Inventory2Icon />, section: 'Commerce' },
  { id: 'inbox', label: 'Inbox', icon: <InboxIcon />, section: 'Workspace' },
  { id: 'settings', label: 'Settings', icon: <SettingsIcon />, section: 'Workspace' },
];

export function pageLabel(id: PageId): string {
  return pages.find((p) => p.id === id)?.label ?? id;
}
