import { lazy, Suspense, useEffect, useState } from 'react';
import { Layout } from './components/Layout';
import { Home } from './routes/Home';

// Every route but the home view is its own chunk, loaded on first visit.
const Reports = lazy(() => import('./routes/Reports'));
const Team = lazy(() => import('./routes/Team'));
const Settings = lazy(() => import('./routes/Settings'));

export type Route = 'home' | 'reports' | 'team' | 'settings';
export const routes: Route[] = ['home', 'reports', 'team', 'settings'];

function currentRoute(): Route {
  const r = window.location.hash.replace(/^#\/?/, '') as Route;
  return routes.includes(r) ? r : 'home';
}

export function App() {
  const [route, setRoute] = useState<Route>(currentRoute);
  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return (
    <Layout route={route}>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        {route === 'home' && <Home />}
        {route === 'reports' && <Reports />}
        {route === 'team' && <Team />}
        {route === 'settings' && <Settings />}
      </Suspense>
    </Layout>
  );
}
