import { useState } from 'react';
import { Button } from '../components/Button';
import { Card } from '../components/Card';

type Prefs = { name: string; email: string; theme: 'light' | 'dark' | 'system'; digest: boolean; timezone: string };

const zones = ['UTC', 'Europe/Paris', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo'];

export default function Settings() {
  const [prefs, setPrefs] = useState<Prefs>({ name: 'Ada Lovelace', email: 'ada@example.com', theme: 'system', digest: true, timezone: 'UTC' });
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Prefs>(k: K, v: Prefs[K]) => {
    setPrefs((p) => ({ ...p, [k]: v }));
    setSaved(false);
  };
  return (
    <div data-route="route-settings">
      <h1>Settings</h1>
      <Card title="Profile">
        <label>
          Name <input value={prefs.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label>
          Email <input type="email" value={prefs.email} onChange={(e) => set('email', e.target.value)} />
        </label>
      </Card>
      <Card title="Preferences">
        <label>
          Theme{' '}
          <select value={prefs.theme} onChange={(e) => set('theme', e.target.value as Prefs['theme'])}>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
            <option value="system">System</option>
          </select>
        </label>
        <label>
          Time zone{' '}
          <select value={prefs.timezone} onChange={(e) => set('timezone', e.target.value)}>
            {zones.map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={prefs.digest} onChange={(e) => set('digest', e.target.checked)} /> Weekly digest
        </label>
      </Card>
      <Button onClick={() => setSaved(true)}>Save</Button>
      {saved && <span> Saved.</span>}
    </div>
  );
}
