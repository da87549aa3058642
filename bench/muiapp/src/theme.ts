import { alpha, createTheme, type PaletteMode, type Theme } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface Palette {
    neutral: Palette['primary'];
  }
  interface PaletteOptions {
    neutral?: PaletteOptions['primary'];
  }
}

export const drawerWidth = 264;

/** The app's theme in light or dark mode. */
export function buildTheme(mode: PaletteMode): Theme {
  const dark = mode === 'dark';
  const base = createTheme({
    palette: {
      mode,
      primary: { main: dark ? '#8c9eff' : '#3949ab' },
      secondary: { main: dark ? '#80cbc4' : '#00897b' },
      neutral: { main: dark ? '#b0bec5' : '#546e7a', contrastText: '#fff' },
      background: dark ? { default: '#0f1420', paper: '#161c2b' } : { default: '#f4f6fb', paper: '#ffffff' },
      success: { main: '#2e7d32' },
      warning: { main: '#ed6c02' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h4: { fontWeight: 700, letterSpacing: '-0.02em' },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
      overline: { fontWeight: 700, letterSpacing: '0.08em' },
    },
  });
  return createTheme(base, {
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          body: { scrollbarGutter: 'stable' },
          '::selection': { background: alpha(base.palette.primary.main, 0.25) },
        },
      },
      MuiAppBar: {
        defaultProps: { elevation: 0, color: 'inherit' },
        styleOverrides: {
          root: { borderBottom: `1px solid ${base.palette.divider}`, backdropFilter: 'blur(8px)', backgroundColor: alpha(base.palette.background.paper, 0.85) },
        },
      },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: { root: { borderRadius: 14 } },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTableCell: {
        styleOverrides: { head: { fontWeight: 700, color: base.palette.text.secondary, whiteSpace: 'nowrap' } },
      },
      MuiListItemButton: {
        styleOverrides: {
          root: {
            borderRadius: 8,
            margin: '2px 8px',
            '&.Mui-selected': { backgroundColor: alpha(base.palette.primary.main, dark ? 0.24 : 0.12) },
          },
        },
      },
      MuiTooltip: { defaultProps: { arrow: true } },
      MuiChip: { styleOverrides: { root: { fontWeight: 600 } } },
      MuiTextField: { defaultProps: { size: 'small' } },
      MuiSelect: { defaultProps: { size: 'small' } },
    },
  });
}
