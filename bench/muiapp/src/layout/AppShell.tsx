import { useState, type MouseEvent, type ReactNode } from 'react';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import LinearProgress from '@mui/material/LinearProgress';
import { alpha, styled, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { PaletteMode } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import SearchIcon from '@mui/icons-material/Search';
import NotificationsIcon from '@mui/icons-material/Notifications';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import LogoutIcon from '@mui/icons-material/Logout';
import SupportIcon from '@mui/icons-material/Support';
import StorefrontIcon from '@mui/icons-material/Storefront';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import WarningIcon from '@mui/icons-material/Warning';
import CloudDoneIcon from '@mui/icons-material/CloudDone';
import { drawerWidth } from '../theme';
import { pages, pageLabel, type PageId } from './navigation';
import { messages } from '../data/mock';

const Search = styled('div')(({ theme }) => ({
  position: 'relative',
  borderRadius: theme.shape.borderRadius,
  backgroundColor: alpha(theme.palette.text.primary, 0.05),
  '&:hover': { backgroundColor: alpha(theme.palette.text.primary, 0.08) },
  width: '100%',
  maxWidth: 420,
}));

const SearchIconWrapper = styled('div')(({ theme }) => ({
  padding: theme.spacing(0, 1.5),
  height: '100%',
  position: 'absolute',
  pointerEvents: 'none',
  display: 'flex',
  alignItems: 'center',
  color: theme.palette.text.secondary,
}));

const StyledInputBase = styled(InputBase)(({ theme }) => ({
  color: 'inherit',
  width: '100%',
  '& .MuiInputBase-input': {
    padding: theme.spacing(1, 1, 1, 0),
    paddingLeft: `calc(1em + ${theme.spacing(4)})`,
  },
}));

const notifications = [
  { id: 1, icon: <ShoppingCartIcon color="primary" />, text: '12 new orders since yesterday', when: '5 min ago' },
  { id: 2, icon: <PersonAddIcon color="secondary" />, text: 'Grace Hopper joined the Pro plan', when: '1 h ago' },
  { id: 3, icon: <WarningIcon color="warning" />, text: '3 products are out of stock', when: '3 h ago' },
  { id: 4, icon: <CloudDoneIcon color="success" />, text: 'Nightly backup completed', when: 'today 04:00' },
];

interface AppShellProps {
  page: PageId;
  mode: PaletteMode;
  onToggleMode: () => void;
  children: ReactNode;
}

/** The frame of every page: the top bar, the navigation drawer and the content. */
export function AppShell({ page, mode, onToggleMode, children }: AppShellProps) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [notifyAnchor, setNotifyAnchor] = useState<HTMLElement | null>(null);
  const [accountAnchor, setAccountAnchor] = useState<HTMLElement | null>(null);
  const unread = messages.filter((m) => m.folder === 'inbox' && m.unread).length;

  const openMenu = (set: (el: HTMLElement | null) => void) => (e: MouseEvent<HTMLElement>) => set(e.currentTarget);

  const sections = [...new Set(pages.map((p) => p.section))];
  const drawer = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ gap: 1.5 }}>
        <Avatar variant="rounded" sx={{ bgcolor: 'primary.main', width: 36, height: 36 }}>
          <StorefrontIcon fontSize="small" />
        </Avatar>
        <Box>
          <Typography variant="subtitle1" sx={{ fontWeight: 800, lineHeight: 1.1 }}>
            Northwind
          </Typography>
          <Typography variant="caption" color="text.secondary">
            Admin console
          </Typography>
        </Box>
      </Toolbar>
      <Divider />
      <Box component="nav" sx={{ flexGrow: 1, overflowY: 'auto', py: 1 }}>
        {sections.map((section) => (
          <List key={section} dense subheader={<ListSubheader sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>{section}</ListSubheader>}>
            {pages
              .filter((p) => p.section === section)
              .map((p) => (
                <ListItemButton key={p.id} component="a" href={`#/${p.id}`} selected={p.id === page} onClick={() => setDrawerOpen(false)}>
                  <ListItemIcon sx={{ minWidth: 40, color: p.id === page ? 'primary.main' : undefined }}>
                    {p.id === 'inbox' ? (
                      <Badge badgeContent={unread} color="error" max={99}>
                        {p.icon}
                      </Badge>
                    ) : (
                      p.icon
                    )}
                  </ListItemIcon>
                  <ListItemText primary={p.label} />
                </ListItemButton>
              ))}
          </List>
        ))}
      </Box>
      <Box sx={{ p: 2 }}>
        <Box sx={{ p: 2, borderRadius: 2, bgcolor: (t) => alpha(t.palette.primary.main, 0.08) }}>
          <Typography variant="subtitle2">Storage</Typography>
          <Typography variant="caption" color="text.secondary">
            7.2 GB of 10 GB used
          </Typography>
          <LinearProgress variant="determinate" value={72} sx={{ mt: 1, borderRadius: 4, height: 6 }} />
        </Box>
      </Box>
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ width: { md: `calc(100% - ${drawerWidth}px)` }, ml: { md: `${drawerWidth}px` } }}>
        <Toolbar sx={{ gap: 2 }}>
          {narrow && (
            <IconButton edge="start" aria-label="open navigation" onClick={() => setDrawerOpen(true)}>
              <MenuIcon />
            </IconButton>
          )}
          <Typography variant="h6" noWrap sx={{ display: { xs: 'none', sm: 'block' }, minWidth: 120 }}>
            {pageLabel(page)}
          </Typography>
          <Search>
            <SearchIconWrapper>
              <SearchIcon />
            </SearchIconWrapper>
            <StyledInputBase placeholder="Search orders, customers, products…" inputProps={{ 'aria-label': 'search' }} />
          </Search>
          <Box sx={{ flexGrow: 1 }} />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Tooltip title={mode === 'dark' ? 'Light mode' : 'Dark mode'}>
              <IconButton onClick={onToggleMode} aria-label="toggle color mode">
                {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
              </IconButton>
            </Tooltip>
            <Tooltip title="Notifications">
              <IconButton onClick={openMenu(setNotifyAnchor)} aria-label="notifications">
                <Badge badgeContent={notifications.length} color="error">
                  <NotificationsIcon />
                </Badge>
              </IconButton>
            </Tooltip>
            <Tooltip title="Account">
              <IconButton onClick={openMenu(setAccountAnchor)} aria-label="account">
                <Avatar sx={{ width: 32, height: 32, bgcolor: 'secondary.main', fontSize: 14 }}>AL</Avatar>
              </IconButton>
            </Tooltip>
          </Stack>
        </Toolbar>
      </AppBar>
      <Menu
        anchorEl={notifyAnchor}
        open={notifyAnchor !== null}
        onClose={() => setNotifyAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 340 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>
          Notifications
        </Typography>
        <Divider />
        {notifications.map((n) => (
          <MenuItem key={n.id} onClick={() => setNotifyAnchor(null)} sx={{ whiteSpace: 'normal', gap: 1.5, py: 1.25 }}>
            {n.icon}
            <ListItemText primary={n.text} secondary={n.when} />
          </MenuItem>
        ))}
      </Menu>
      <Menu anchorEl={accountAnchor} open={accountAnchor !== null} onClose={() => setAccountAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        <MenuItem component="a" href="#/settings" onClick={() => setAccountAnchor(null)}>
          <ListItemIcon>
            <AccountCircleIcon fontSize="small" />
          </ListItemIcon>
          Profile
        </MenuItem>
        <MenuItem onClick={() => setAccountAnchor(null)}>
          <ListItemIcon>
            <SupportIcon fontSize="small" />
          </ListItemIcon>
          Help &amp; support
        </MenuItem>
        <Divider />
        <MenuItem onClick={() => setAccountAnchor(null)}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
      </Menu>
      <Box component="nav" sx={{ width: { md: drawerWidth }, flexShrink: { md: 0 } }} aria-label="main navigation">
        {narrow ? (
          <Drawer variant="temporary" open={drawerOpen} onClose={() => setDrawerOpen(false)} sx={{ '& .MuiDrawer-paper': { width: drawerWidth } }}>
            {drawer}
          </Drawer>
        ) : (
          <Drawer variant="permanent" open sx={{ '& .MuiDrawer-paper': { width: drawerWidth, boxSizing: 'border-box' } }}>
            {drawer}
          </Drawer>
        )}
      </Box>
      <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, width: { md: `calc(100% - ${drawerWidth}px)` } }}>
        <Toolbar />
        {children}
      </Box>
    </Box>
  );
}
