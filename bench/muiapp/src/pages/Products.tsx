import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  ButtonGroup,
  Card,
  CardActionArea,
  CardActions,
  CardContent,
  Chip,
  Collapse,
  Drawer,
  Fab,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Grid,
  IconButton,
  InputAdornment,
  MenuItem,
  Rating,
  Skeleton,
  Slider,
  Stack,
  Checkbox,
  TextField,
  Tooltip,
  Typography,
  Zoom,
} from '@mui/material';
import { alpha } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import TuneIcon from '@mui/icons-material/Tune';
import SortIcon from '@mui/icons-material/Sort';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import BookmarkIcon from '@mui/icons-material/Bookmark';
import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import ShareIcon from '@mui/icons-material/Share';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import MemoryIcon from '@mui/icons-material/Memory';
import CodeIcon from '@mui/icons-material/Code';
import CableIcon from '@mui/icons-material/Cable';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import SchoolIcon from '@mui/icons-material/School';
import SellIcon from '@mui/icons-material/Sell';
import QrCode2Icon from '@mui/icons-material/QrCode2';
import { PageHeader } from '../components/PageHeader';
import { useNotify } from '../components/Notify';
import { categories, products, type Product } from '../data/mock';
import { formatMoney } from '../data/format';

const categoryIcon: Record<(typeof categories)[number], typeof MemoryIcon> = {
  Hardware: MemoryIcon,
  Software: CodeIcon,
  Accessories: CableIcon,
  Services: SupportAgentIcon,
  Books: MenuBookIcon,
  Training: SchoolIcon,
};

type Sort = 'featured' | 'price-asc' | 'price-desc' | 'rating';
const maxPrice = Math.ceil(Math.max(...products.map((p) => p.priceCents)) / 100);

function sorted(list: Product[], sort: Sort): Product[] {
  const copy = [...list];
  switch (sort) {
    case 'price-asc':
      return copy.sort((a, b) => a.priceCents - b.priceCents);
    case 'price-desc':
      return copy.sort((a, b) => b.priceCents - a.priceCents);
    case 'rating':
      return copy.sort((a, b) => b.rating - a.rating || b.reviews - a.reviews);
    default:
      return copy.sort((a, b) => Number(b.featured) - Number(a.featured));
  }
}

export function Products() {
  const notify = useNotify();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [price, setPrice] = useState<number[]>([0, maxPrice]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [inStock, setInStock] = useState(false);
  const [minRating, setMinRating] = useState<number | null>(null);
  const [sort, setSort] = useState<Sort>('featured');
  const [saved, setSaved] = useState<Set<number>>(new Set());
  const [expanded, setExpanded] = useState<number | null>(null);
  const [cart, setCart] = useState<Record<number, number>>({});
  const [loading, setLoading] = useState(false);

  const list = sorted(
    products.filter((p) => p.priceCents / 100 >= price[0] && p.priceCents / 100 <= price[1] && (chosen.length === 0 || chosen.includes(p.category)) && (!inStock || p.stock > 0) && (minRating === null || p.rating >= minRating)),
    sort,
  );
  const cartCount = Object.values(cart).reduce((a, b) => a + b, 0);
  const addToCart = (p: Product, n: number) => {
    setCart((c) => {
      const next = { ...c, [p.id]: Math.max(0, (c[p.id] ?? 0) + n) };
      if (next[p.id] === 0) delete next[p.id];
      return next;
    });
    if (n > 0) notify(`${p.name} added to the order`);
  };
  const reload = () => {
    setLoading(true);
    window.setTimeout(() => setLoading(false), 600);
  };

  const filters = (
    <Box sx={{ width: 300, p: 3, display: 'grid', gap: 3 }} role="presentation">
      <Typography variant="h6">Filters</Typography>
      <Box>
        <FormLabel>Price</FormLabel>
        <Slider
          value={price}
          onChange={(_, v) => setPrice(v as number[])}
          valueLabelDisplay="auto"
          valueLabelFormat={(v) => `$${v}`}
          min={0}
          max={maxPrice}
          step={10}
          marks={[
            { value: 0, label: '$0' },
            { value: maxPrice, label: `$${maxPrice}` },
          ]}
          disableSwap
        />
      </Box>
      <FormControl component="fieldset">
        <FormLabel component="legend">Categories</FormLabel>
        <FormGroup>
          {categories.map((c) => {
            const Icon = categoryIcon[c];
            return (
              <FormControlLabel
                key={c}
                control={<Checkbox checked={chosen.includes(c)} onChange={(e) => setChosen(e.target.checked ? [...chosen, c] : chosen.filter((x) => x !== c))} />}
                label={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Icon fontSize="small" color="action" />
                    <span>{c}</span>
                  </Stack>
                }
              />
            );
          })}
        </FormGroup>
      </FormControl>
      <FormControlLabel control={<Checkbox checked={inStock} onChange={(e) => setInStock(e.target.checked)} />} label="In stock only" />
      <Box>
        <FormLabel>At least</FormLabel>
        <Box>
          <Rating value={minRating} onChange={(_, v) => setMinRating(v)} precision={0.5} />
        </Box>
      </Box>
      <Button
        onClick={() => {
          setPrice([0, maxPrice]);
          setChosen([]);
          setInStock(false);
          setMinRating(null);
        }}
      >
        Reset filters
      </Button>
    </Box>
  );

  return (
    <>
      <PageHeader
        title="Products"
        subtitle={`${list.length} of ${products.length} products`}
        trail={['Commerce', 'Products']}
        actions={
          <>
            <Button variant="outlined" startIcon={<TuneIcon />} onClick={() => setFiltersOpen(true)}>
              Filters{chosen.length > 0 ? ` (${chosen.length})` : ''}
            </Button>
            <TextField
              select
              value={sort}
              onChange={(e) => setSort(e.target.value as Sort)}
              sx={{ minWidth: 180 }}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SortIcon />
                    </InputAdornment>
                  ),
                },
              }}
            >
              <MenuItem value="featured">Featured first</MenuItem>
              <MenuItem value="price-asc">Price, low to high</MenuItem>
              <MenuItem value="price-desc">Price, high to low</MenuItem>
              <MenuItem value="rating">Best rated</MenuItem>
            </TextField>
            <Button onClick={reload}>Reload</Button>
          </>
        }
      />
      {list.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          No product matches these filters.
        </Alert>
      )}
      <Grid container spacing={2}>
        {list.map((p) => {
          const Icon = categoryIcon[p.category as (typeof categories)[number]];
          return (
            <Grid key={p.id} size={{ xs: 12, sm: 6, md: 4, xl: 3 }}>
              <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
                <CardActionArea onClick={() => setExpanded(expanded === p.id ? null : p.id)}>
                  {loading ? (
                    <Skeleton variant="rectangular" height={120} />
                  ) : (
                    <Box sx={(t) => ({ height: 120, display: 'grid', placeItems: 'center', bgcolor: alpha(t.palette.primary.main, 0.06), position: 'relative' })}>
                      <Icon sx={{ fontSize: 56, color: 'primary.main' }} />
                      {p.featured && <Chip size="small" color="secondary" icon={<SellIcon />} label="Featured" sx={{ position: 'absolute', top: 8, left: 8 }} />}
                      {p.stock === 0 && <Chip size="small" color="error" label="Out of stock" sx={{ position: 'absolute', top: 8, right: 8 }} />}
                    </Box>
                  )}
                  <CardContent>
                    {loading ? (
                      <>
                        <Skeleton width="70%" />
                        <Skeleton width="40%" />
                      </>
                    ) : (
                      <>
                        <Typography variant="subtitle1">{p.name}</Typography>
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <Rating size="small" value={p.rating} precision={0.5} readOnly />
                          <Typography variant="caption" color="text.secondary">
                            ({p.reviews})
                          </Typography>
                        </Stack>
                        <Typography variant="h6" sx={{ mt: 1 }}>
                          {formatMoney(p.priceCents)}
                        </Typography>
                      </>
                    )}
                  </CardContent>
                </CardActionArea>
                <Collapse in={expanded === p.id} timeout="auto" unmountOnExit>
                  <CardContent sx={{ pt: 0 }}>
                    <Stack spacing={0.5}>
                      <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        <QrCode2Icon fontSize="small" /> {p.sku}
                      </Typography>
                      <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        <Inventory2Icon fontSize="small" /> {p.stock} in stock
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {p.category}
                      </Typography>
                    </Stack>
                  </CardContent>
                </Collapse>
                <Box sx={{ flexGrow: 1 }} />
                <CardActions>
                  {cart[p.id] ? (
                    <ButtonGroup size="small" variant="outlined">
                      <Button onClick={() => addToCart(p, -1)} aria-label="one less">
                        <RemoveIcon fontSize="small" />
                      </Button>
                      <Button disabled>{cart[p.id]}</Button>
                      <Button onClick={() => addToCart(p, 1)} aria-label="one more">
                        <AddIcon fontSize="small" />
                      </Button>
                    </ButtonGroup>
                  ) : (
                    <Button size="small" startIcon={<AddShoppingCartIcon />} disabled={p.stock === 0} onClick={() => addToCart(p, 1)}>
                      Add
                    </Button>
                  )}
                  <Box sx={{ flexGrow: 1 }} />
                  <Tooltip title={saved.has(p.id) ? 'Saved' : 'Save for later'}>
                    <IconButton
                      size="small"
                      onClick={() =>
                        setSaved((s) => {
                          const next = new Set(s);
                          if (next.has(p.id)) next.delete(p.id);
                          else next.add(p.id);
                          return next;
                        })
                      }
                    >
                      {saved.has(p.id) ? <BookmarkIcon fontSize="small" color="primary" /> : <BookmarkBorderIcon fontSize="small" />}
                    </IconButton>
                  </Tooltip>
                  <Tooltip title="Share">
                    <IconButton size="small">
                      <ShareIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <IconButton size="small" onClick={() => setExpanded(expanded === p.id ? null : p.id)} aria-label="details">
                    {expanded === p.id ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
                  </IconButton>
                </CardActions>
              </Card>
            </Grid>
          );
        })}
      </Grid>
      <Drawer anchor="right" open={filtersOpen} onClose={() => setFiltersOpen(false)}>
        {filters}
      </Drawer>
      <Zoom in={cartCount > 0}>
        <Fab color="primary" variant="extended" sx={{ position: 'fixed', bottom: 24, right: 24 }} href="#/orders">
          <AddShoppingCartIcon sx={{ mr: 1 }} />
          Order {cartCount} items
        </Fab>
      </Zoom>
    </>
  );
}
