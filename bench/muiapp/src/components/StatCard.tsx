import type { ReactElement } from 'react';
import { Avatar, Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import { Sparkline } from './Charts';
import { formatPercent } from '../data/format';

interface StatCardProps {
  label: string;
  value: string;
  change: number;
  icon: ReactElement;
  color: 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';
  series: number[];
}

export function StatCard({ label, value, change, icon, color, series }: StatCardProps) {
  const up = change >= 0;
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box>
            <Typography variant="overline" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="h5" sx={{ mt: 0.5 }}>
              {value}
            </Typography>
          </Box>
          <Avatar sx={(t) => ({ bgcolor: alpha(t.palette[color].main, 0.14), color: `${color}.main` })}>{icon}</Avatar>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between' }}>
          <Chip size="small" icon={up ? <TrendingUpIcon /> : <TrendingDownIcon />} label={formatPercent(change)} color={up ? 'success' : 'error'} variant="outlined" />
          <Box sx={{ color: `${color}.main` }}>
            <Sparkline values={series} />
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
