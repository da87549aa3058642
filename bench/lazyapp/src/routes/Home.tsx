import { Button } from '../components/Button';
import { Card, Stat } from '../components/Card';
import { formatCount, formatMoney } from '../components/format';

// The home view: loaded with the entry.
export function Home() {
  return (
    <div data-route="route-home">
      <h1>Welcome back</h1>
      <div className="cards">
        <Card>
          <Stat label="Revenue this month" value={formatMoney(184_230)} />
        </Card>
        <Card>
          <Stat label="Orders" value={formatCount(3_412)} />
        </Card>
        <Card>
          <Stat label="Active customers" value={formatCount(1_207)} />
        </Card>
      </div>
      <Card title="Next steps">
        <p>Open the reports for the quarter's sales, or invite your team.</p>
        <Button onClick={() => (window.location.hash = '#/reports')}>Reports</Button>
        <Button variant="secondary" onClick={() => (window.location.hash = '#/team')}>
          Team
        </Button>
      </Card>
    </div>
  );
}
