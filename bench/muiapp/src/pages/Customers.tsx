import { useMemo, useState } from 'react';
import {
  Autocomplete,
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Grid,
  IconButton,
  InputAdornment,
  MenuItem,
  Pagination,
  Radio,
  RadioGroup,
  Rating,
  Stack,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import { styled } from '@mui/material/styles';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import EmailIcon from '@mui/icons-material/Email';
import PhoneIcon from '@mui/icons-material/Phone';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import BusinessIcon from '@mui/icons-material/Business';
import StarIcon from '@mui/icons-material/Star';
import FavoriteIcon from '@mui/icons-material/Favorite';
import FavoriteBorderIcon from '@mui/icons-material/FavoriteBorder';
import ChatIcon from '@mui/icons-material/Chat';
import EditIcon from '@mui/icons-material/Edit';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import ViewListIcon from '@mui/icons-material/ViewList';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import { PageHeader } from '../components/PageHeader';
import { useNotify } from '../components/Notify';
import { customers as seed, type Customer, type Tier } from '../data/mock';
import { avatarColor, formatDate, formatMoney, initials } from '../data/format';

const OnlineBadge = styled(Badge)(({ theme }) => ({
  '& .MuiBadge-badge': {
    backgroundColor: theme.palette.success.main,
    color: theme.palette.success.main,
    boxShadow: `0 0 0 2px ${theme.palette.background.paper}`,
  },
}));

const tierColor: Record<Tier, 'default' | 'primary' | 'secondary'> = { free: 'default', pro: 'primary', enterprise: 'secondary' };
const perPage = 12;

interface Draft {
  name: string;
  email: string;
  company: string;
  country: string;
  tier: Tier;
  newsletter: boolean;
  terms: boolean;
}

const emptyDraft: Draft = { name: '', email: '', company: '', country: 'France', tier: 'pro', newsletter: true, terms: false };

export function Customers() {
  const notify = useNotify();
  const [list, setList] = useState(seed);
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [countries, setCountries] = useState<string[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [activeOnly, setActiveOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [favorites, setFavorites] = useState<Set<number>>(new Set([3, 8]));
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [touched, setTouched] = useState(false);

  const allCountries = useMemo(() => [...new Set(seed.map((c) => c.country))].sort(), []);
  const allTags = useMemo(() => [...new Set(seed.flatMap((c) => c.tags))].sort(), []);
  const filtered = list.filter((c) => (countries.length === 0 || countries.includes(c.country)) && tags.every((t) => c.tags.includes(t)) && (!activeOnly || c.active));
  const pages = Math.max(1, Math.ceil(filtered.length / perPage));
  const shown = filtered.slice((page - 1) * perPage, page * perPage);

  const emailError = touched && !/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(draft.email);
  const nameError = touched && draft.name.trim().length < 2;
  const save = () => {
    setTouched(true);
    if (nameError || emailError || !draft.terms || draft.name.trim().length < 2) return;
    const c: Customer = {
      id: list.length + 1,
      name: draft.name.trim(),
      email: draft.email,
      company: draft.company || '—',
      city: '',
      country: draft.country,
      tier: draft.tier,
      joined: new Date().toISOString(),
      spentCents: 0,
      orders: 0,
      rating: 0,
      active: true,
      tags: draft.newsletter ? ['newsletter'] : [],
    };
    setList([c, ...list]);
    setAdding(false);
    setDraft(emptyDraft);
    setTouched(false);
    notify(`${c.name} added`);
  };
  const toggleFavorite = (id: number) =>
    setFavorites((f) => {
      const next = new Set(f);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <PageHeader
        title="Customers"
        subtitle={`${filtered.length} customers`}
        trail={['Commerce', 'Customers']}
        actions={
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setAdding(true)}>
            Add customer
          </Button>
        }
      />
      <Card sx={{ mb: 3 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <Autocomplete
              multiple
              options={allCountries}
              value={countries}
              onChange={(_, v) => {
                setCountries(v);
                setPage(1);
              }}
              renderInput={(params) => <TextField {...params} label="Countries" placeholder="Any country" />}
              sx={{ minWidth: 280, flex: 1 }}
            />
            <Autocomplete
              multiple
              freeSolo={false}
              options={allTags}
              value={tags}
              onChange={(_, v) => {
                setTags(v);
                setPage(1);
              }}
              renderInput={(params) => <TextField {...params} label="Tags" placeholder="Any tag" />}
              sx={{ minWidth: 240, flex: 1 }}
            />
            <FormControlLabel control={<Switch checked={activeOnly} onChange={(e) => setActiveOnly(e.target.checked)} />} label="Active only" />
            <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, v: 'grid' | 'list' | null) => v && setView(v)} aria-label="view">
              <ToggleButton value="grid" aria-label="grid">
                <ViewModuleIcon />
              </ToggleButton>
              <ToggleButton value="list" aria-label="list">
                <ViewListIcon />
              </ToggleButton>
            </ToggleButtonGroup>
          </Stack>
        </CardContent>
      </Card>

      <Grid container spacing={2}>
        {shown.map((c) => (
          <Grid key={c.id} size={view === 'grid' ? { xs: 12, sm: 6, lg: 4, xl: 3 } : 12}>
            <Card sx={{ height: '100%', display: 'flex', flexDirection: view === 'grid' ? 'column' : 'row' }}>
              <CardContent sx={{ flexGrow: 1 }}>
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <OnlineBadge overlap="circular" anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} variant="dot" invisible={!c.active}>
                    <Avatar sx={{ bgcolor: avatarColor(c.name), width: 48, height: 48 }}>{initials(c.name)}</Avatar>
                  </OnlineBadge>
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Typography variant="subtitle1" noWrap>
                      {c.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" noWrap sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                      <BusinessIcon sx={{ fontSize: 16 }} /> {c.company}
                    </Typography>
                  </Box>
                  <Chip size="small" label={c.tier} color={tierColor[c.tier]} icon={c.tier === 'enterprise' ? <WorkspacePremiumIcon /> : undefined} />
                </Stack>
                <Stack spacing={0.75} sx={{ mt: 2 }}>
                  <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <EmailIcon fontSize="small" color="action" /> {c.email}
                  </Typography>
                  <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <LocationOnIcon fontSize="small" color="action" /> {c.city ? `${c.city}, ` : ''}
                    {c.country}
                  </Typography>
                  <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <CalendarMonthIcon fontSize="small" color="action" /> since {formatDate(c.joined)}
                  </Typography>
                </Stack>
                <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between' }}>
                  <Box>
                    <Typography variant="caption" color="text.secondary">
                      {c.orders} orders · {formatMoney(c.spentCents)}
                    </Typography>
                  </Box>
                  <Rating size="small" value={c.rating} precision={0.5} readOnly emptyIcon={<StarIcon fontSize="inherit" sx={{ opacity: 0.4 }} />} />
                </Stack>
                {c.tags.length > 0 && (
                  <Stack direction="row" spacing={0.5} useFlexGap sx={{ mt: 1.5, flexWrap: 'wrap' }}>
                    {c.tags.map((t) => (
                      <Chip key={t} size="small" variant="outlined" label={t} onClick={() => !tags.includes(t) && setTags([...tags, t])} />
                    ))}
                  </Stack>
                )}
              </CardContent>
              <CardActions sx={{ justifyContent: 'flex-end' }}>
                <Tooltip title={favorites.has(c.id) ? 'Remove from favorites' : 'Add to favorites'}>
                  <IconButton onClick={() => toggleFavorite(c.id)} color={favorites.has(c.id) ? 'error' : 'default'}>
                    {favorites.has(c.id) ? <FavoriteIcon /> : <FavoriteBorderIcon />}
                  </IconButton>
                </Tooltip>
                <Tooltip title="Call">
                  <IconButton>
                    <PhoneIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title="Message">
                  <IconButton href="#/inbox">
                    <ChatIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title="Edit">
                  <IconButton>
                    <EditIcon />
                  </IconButton>
                </Tooltip>
              </CardActions>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
        <Pagination count={pages} page={Math.min(page, pages)} onChange={(_, p) => setPage(p)} color="primary" showFirstButton showLastButton />
      </Box>

      <Dialog open={adding} onClose={() => setAdding(false)} maxWidth="sm" fullWidth>
        <DialogTitle>New customer</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField label="Full name" required autoFocus value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={nameError} helperText={nameError ? 'At least two characters' : ' '} />
            <TextField
              label="Email"
              type="email"
              required
              value={draft.email}
              onChange={(e) => setDraft({ ...draft, email: e.target.value })}
              error={emailError}
              helperText={emailError ? 'Not an email address' : 'Invoices are sent here'}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <EmailIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField label="Company" fullWidth value={draft.company} onChange={(e) => setDraft({ ...draft, company: e.target.value })} />
              <TextField select label="Country" fullWidth value={draft.country} onChange={(e) => setDraft({ ...draft, country: e.target.value })}>
                {allCountries.map((c) => (
                  <MenuItem key={c} value={c}>
                    {c}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <FormControl>
              <FormLabel id="tier-label">Plan</FormLabel>
              <RadioGroup row aria-labelledby="tier-label" value={draft.tier} onChange={(e) => setDraft({ ...draft, tier: e.target.value as Tier })}>
                <FormControlLabel value="free" control={<Radio />} label="Free" />
                <FormControlLabel value="pro" control={<Radio />} label="Pro" />
                <FormControlLabel value="enterprise" control={<Radio />} label="Enterprise" />
              </RadioGroup>
            </FormControl>
            <FormControlLabel control={<Switch checked={draft.newsletter} onChange={(e) => setDraft({ ...draft, newsletter: e.target.checked })} />} label="Subscribe to the newsletter" />
            <FormControl error={touched && !draft.terms}>
              <FormControlLabel control={<Checkbox checked={draft.terms} onChange={(e) => setDraft({ ...draft, terms: e.target.checked })} />} label="The customer accepted the terms of service" />
              {touched && !draft.terms && <FormHelperText>Required</FormHelperText>}
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAdding(false)}>Cancel</Button>
          <Button variant="contained" onClick={save}>
            Save
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
