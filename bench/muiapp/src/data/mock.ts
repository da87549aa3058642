// Deterministic sample data: every load of the app shows the same
// customers, orders, products and messages.

export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'delivered' | 'refunded' | 'cancelled';
export type Tier = 'free' | 'pro' | 'enterprise';

export interface Customer {
  id: number;
  name: string;
  email: string;
  company: string;
  city: string;
  country: string;
  tier: Tier;
  joined: string;
  spentCents: number;
  orders: number;
  rating: number;
  active: boolean;
  tags: string[];
}

export interface Product {
  id: number;
  sku: string;
  name: string;
  category: string;
  priceCents: number;
  stock: number;
  rating: number;
  reviews: number;
  featured: boolean;
}

export interface OrderLine {
  productId: number;
  quantity: number;
  priceCents: number;
}

export interface Order {
  id: string;
  customerId: number;
  date: string;
  status: OrderStatus;
  channel: 'web' | 'mobile' | 'partner' | 'store';
  lines: OrderLine[];
  totalCents: number;
  shipping: string;
}

export interface Message {
  id: number;
  folder: 'inbox' | 'sent' | 'drafts' | 'archive';
  from: string;
  subject: string;
  preview: string;
  date: string;
  unread: boolean;
  starred: boolean;
  labels: string[];
}

export interface Activity {
  id: number;
  who: string;
  what: string;
  when: string;
  kind: 'order' | 'customer' | 'product' | 'system';
}

function generator(seed: number) {
  let x = seed;
  const next = () => {
    x = (x * 16807) % 2147483647;
    return x;
  };
  return {
    int: (lo: number, hi: number) => lo + (next() % (hi - lo + 1)),
    pick: <T,>(items: readonly T[]): T => items[next() % items.length],
    chance: (p: number) => next() % 1000 < p * 1000,
  };
}

const first = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Margaret', 'Ken', 'Radia', 'Leslie', 'Hedy', 'Dennis', 'Katherine', 'Tim', 'Sophie', 'Linus', 'Shafi', 'Guido'];
const last = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Hamilton', 'Thompson', 'Perlman', 'Lamport', 'Lamarr', 'Ritchie', 'Johnson', 'Berners-Lee', 'Wilson', 'Torvalds', 'Goldwasser', 'van Rossum'];
const companies = ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Soylent', 'Vandelay', 'Tyrell', 'Cyberdyne', 'Wonka'];
const places: [string, string][] = [
  ['Paris', 'France'],
  ['Lyon', 'France'],
  ['London', 'United Kingdom'],
  ['Berlin', 'Germany'],
  ['Madrid', 'Spain'],
  ['Lisbon', 'Portugal'],
  ['New York', 'United States'],
  ['Austin', 'United States'],
  ['Toronto', 'Canada'],
  ['Tokyo', 'Japan'],
  ['Sydney', 'Australia'],
  ['São Paulo', 'Brazil'],
];
const tagWords = ['vip', 'wholesale', 'newsletter', 'late-payer', 'referral', 'beta', 'churn-risk', 'partner'];
export const categories = ['Hardware', 'Software', 'Accessories', 'Services', 'Books', 'Training'] as const;
const productWords = ['Quantum', 'Nimbus', 'Vertex', 'Orbit', 'Pulse', 'Atlas', 'Nova', 'Helix', 'Zenith', 'Prism', 'Cobalt', 'Echo'];
const productKinds = ['Keyboard', 'Router', 'Monitor', 'License', 'Headset', 'Dock', 'Cable', 'Workshop', 'Handbook', 'Support Plan', 'Sensor', 'Stand'];
const subjects = ['Invoice', 'Shipping delay', 'Question about', 'Renewal of', 'Feedback on', 'Meeting about', 'Refund for', 'Welcome to'];
const topics = ['the Q3 roadmap', 'order #10482', 'your subscription', 'the new dashboard', 'bulk pricing', 'the API limits', 'team onboarding', 'the partner program'];
const labelWords = ['work', 'billing', 'support', 'urgent', 'later'];

function isoDate(daysAgo: number, minutes: number): string {
  const base = Date.UTC(2026, 10, 30, 9, 0, 0);
  return new Date(base - daysAgo * 86400000 + minutes * 60000).toISOString();
}

function makeCustomers(): Customer[] {
  const g = generator(42);
  return Array.from({ length: 120 }, (_, i) => {
    const name = `${g.pick(first)} ${g.pick(last)}`;
    const [city, country] = g.pick(places);
    const tags = tagWords.filter(() => g.chance(0.18));
    return {
      id: i + 1,
      name,
      email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
      company: g.pick(companies),
      city,
      country,
      tier: g.pick(['free', 'pro', 'pro', 'enterprise'] as const),
      joined: isoDate(g.int(20, 1400), 0),
      spentCents: g.int(0, 4_000_000),
      orders: g.int(0, 80),
      rating: g.int(2, 10) / 2,
      active: g.chance(0.85),
      tags,
    };
  });
}

function makeProducts(): Product[] {
  const g = generator(7);
  return Array.from({ length: 64 }, (_, i) => ({
    id: i + 1,
    sku: `NW-${(1000 + i * 37).toString(36).toUpperCase()}`,
    name: `${g.pick(productWords)} ${g.pick(productKinds)}`,
    category: g.pick(categories),
    priceCents: g.int(5, 1500) * 100 - 1,
    stock: g.chance(0.1) ? 0 : g.int(1, 900),
    rating: g.int(4, 10) / 2,
    reviews: g.int(0, 2400),
    featured: g.chance(0.2),
  }));
}

function makeOrders(customerList: Customer[], productList: Product[]): Order[] {
  const g = generator(2026);
  return Array.from({ length: 400 }, (_, i) => {
    const lines = Array.from({ length: g.int(1, 4) }, () => {
      const p = g.pick(productList);
      return { productId: p.id, quantity: g.int(1, 6), priceCents: p.priceCents };
    });
    const daysAgo = Math.floor(i / 4);
    return {
      id: `NW-${10400 + 400 - i}`,
      customerId: g.pick(customerList).id,
      date: isoDate(daysAgo, g.int(0, 600)),
      status: daysAgo < 2 ? g.pick(['pending', 'paid'] as const) : g.pick(['paid', 'shipped', 'delivered', 'delivered', 'delivered', 'refunded', 'cancelled'] as const),
      channel: g.pick(['web', 'web', 'mobile', 'partner', 'store'] as const),
      lines,
      totalCents: lines.reduce((sum, l) => sum + l.quantity * l.priceCents, 0),
      shipping: g.pick(['Standard', 'Express', 'Pickup', 'Freight']),
    };
  });
}

function makeMessages(): Message[] {
  const g = generator(99);
  return Array.from({ length: 60 }, (_, i) => {
    const from = `${g.pick(first)} ${g.pick(last)}`;
    return {
      id: i + 1,
      folder: g.pick(['inbox', 'inbox', 'inbox', 'sent', 'drafts', 'archive'] as const),
      from,
      subject: `${g.pick(subjects)} ${g.pick(topics)}`,
      preview: `Hi team, following up on ${g.pick(topics)}: could you take a look before ${g.pick(['Monday', 'Friday', 'the review', 'the release'])}? Thanks, ${from.split(' ')[0]}.`,
      date: isoDate(Math.floor(i / 3), g.int(0, 900)),
      unread: g.chance(0.35),
      starred: g.chance(0.2),
      labels: labelWords.filter(() => g.chance(0.2)),
    };
  });
}

function makeActivity(customerList: Customer[]): Activity[] {
  const g = generator(5);
  const verbs: [Activity['kind'], string][] = [
    ['order', 'placed an order'],
    ['order', 'requested a refund'],
    ['customer', 'upgraded to Pro'],
    ['customer', 'updated billing details'],
    ['product', 'left a 5-star review'],
    ['system', 'exported the monthly report'],
  ];
  return Array.from({ length: 24 }, (_, i) => {
    const [kind, what] = g.pick(verbs);
    return { id: i + 1, who: g.pick(customerList).name, what, when: isoDate(0, -i * 47), kind };
  });
}

export const customers = makeCustomers();
export const products = makeProducts();
export const orders = makeOrders(customers, products);
export const messages = makeMessages();
export const activity = makeActivity(customers);

export const customerById = new Map(customers.map((c) => [c.id, c]));
export const productById = new Map(products.map((p) => [p.id, p]));

/** Revenue per day over the last `days` days, oldest first, in cents. */
export function dailyRevenue(days: number): number[] {
  const totals = new Array<number>(days).fill(0);
  const end = Date.UTC(2026, 10, 30, 23, 59, 59);
  for (const o of orders) {
    if (o.status === 'cancelled' || o.status === 'refunded') continue;
    const age = Math.floor((end - Date.parse(o.date)) / 86400000);
    if (age >= 0 && age < days) totals[days - 1 - age] += o.totalCents;
  }
  return totals;
}

/** Revenue per product category, largest first, in cents. */
export function revenueByCategory(): { category: string; cents: number }[] {
  const sums = new Map<string, number>();
  for (const o of orders) {
    for (const l of o.lines) {
      const p = productById.get(l.productId);
      if (p) sums.set(p.category, (sums.get(p.category) ?? 0) + l.quantity * l.priceCents);
    }
  }
  return [...sums].map(([category, cents]) => ({ category, cents })).sort((a, b) => b.cents - a.cents);
}
