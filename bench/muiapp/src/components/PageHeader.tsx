import type { ReactNode } from 'react';
import { Box, Breadcrumbs, Link, Stack, Typography } from '@mui/material';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import HomeIcon from '@mui/icons-material/Home';

interface PageHeaderProps {
  title: string;
  subtitle?: string;
  trail?: string[];
  actions?: ReactNode;
}

export function PageHeader({ title, subtitle, trail = [], actions }: PageHeaderProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3, alignItems: { sm: 'flex-end' }, justifyContent: 'space-between' }}>
      <Box>
        <Breadcrumbs separator={<NavigateNextIcon fontSize="small" />} aria-label="breadcrumb" sx={{ mb: 0.5 }}>
          <Link underline="hover" color="inherit" href="#/dashboard" sx={{ display: 'flex', alignItems: 'center' }}>
            <HomeIcon sx={{ mr: 0.5 }} fontSize="inherit" />
            Home
          </Link>
          {trail.map((t, i) =>
            i === trail.length - 1 ? (
              <Typography key={t} color="text.primary" variant="body2">
                {t}
              </Typography>
            ) : (
              <Link key={t} underline="hover" color="inherit" href={`#/${t.toLowerCase()}`}>
                {t}
              </Link>
            ),
          )}
        </Breadcrumbs>
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions && (
        <Stack direction="row" spacing={1} className="no-print">
          {actions}
        </Stack>
      )}
    </Stack>
  );
}
