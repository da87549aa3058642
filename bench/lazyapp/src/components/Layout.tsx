import type { ReactNode } from 'react';
import type { Route } from '../App';

const labels: Record<Route, string> = {
  home: 'Home',
  reports: 'Reports',
  team: 'Team',
  settings: 'Settings',
};

export function Layout({ route, children }: { route: Route; children: ReactNode }) {
  return (
    <div className="layout">
      <nav>
        <div className="brand">Acme Console</div>
        {(Object.keys(labels) as Route[]).map((r) => (
          <a key={r} href={`#/${r}`} className={r === route ? 'active' : undefined}>
            {labels[r]}
          </a>
        ))}
      </nav>
      <main>{children}</main>
    </div>
  );
}
