import { useCallback, useEffect, useMemo, useState } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { PaletteMode } from '@mui/material';
import useMediaQuery from '@mui/material/useMediaQuery';
import { buildTheme } from './theme';
import { AppShell } from './layout/AppShell';
import { pages, type PageId } from './layout/navigation';
import { NotifyProvider } from './components/Notify';
import { Dashboard } from './pages/Dashboard';
import { Orders } from './pages/Orders';
import { Customers } from './pages/Customers';
import { Products } from './pages/Products';
import { Inbox } from './pages/Inbox';
import { Reports } from './pages/Reports';
import { Settings } from './pages/Settings';

function pageFromHash(): PageId {
  const id = window.location.hash.replace(/^#\/?/, '');
  return pages.some((p) => p.id === id) ? (id as PageId) : 'dashboard';
}

const storedMode = (): PaletteMode | null => {
  const m = window.localStorage.getItem('color-mode');
  return m === 'light' || m === 'dark' ? m : null;
};

export function App() {
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)');
  const [mode, setMode] = useState<PaletteMode | null>(storedMode);
  const effectiveMode: PaletteMode = mode ?? (prefersDark ? 'dark' : 'light');
  const theme = useMemo(() => buildTheme(effectiveMode), [effectiveMode]);
  const [page, setPage] = useState<PageId>(pageFromHash);

  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const toggleMode = useCallback(() => {
    const next: PaletteMode = effectiveMode === 'dark' ? 'light' : 'dark';
    window.localStorage.setItem('color-mode', next);
    setMode(next);
  }, [effectiveMode]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <NotifyProvider>
        <AppShell page={page} mode={effectiveMode} onToggleMode={toggleMode}>
          {page === 'dashboard' && <Dashboard />}
          {page === 'orders' && <Orders />}
          {page === 'customers' && <Customers />}
          {page === 'products' && <Products />}
          {page === 'inbox' && <Inbox />}
          {page === 'reports' && <Reports />}
          {page === 'settings' && <Settings mode={effectiveMode} onToggleMode={toggleMode} />}
        </AppShell>
      </NotifyProvider>
    </ThemeProvider>
  );
}
