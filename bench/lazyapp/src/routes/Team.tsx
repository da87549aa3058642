import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { formatDate } from '../components/format';

type Member = { name: string; role: string; email: string; joined: string };

const first = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret', 'Dennis', 'Frances', 'John', 'Radia', 'Niklaus'];
const last = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson', 'Hamilton', 'Ritchie', 'Allen', 'Backus', 'Perlman', 'Wirth'];
const roles = ['Owner', 'Admin', 'Analyst', 'Viewer'];

const members: Member[] = first.flatMap((f, i) =>
  last.slice(0, 4).map((l, j) => ({
    name: `${f} ${last[(i + j) % last.length]}`,
    role: roles[(i + j) % roles.length],
    email: `${f}.${l}@example.com`.toLowerCase(),
    joined: new Date(Date.UTC(2020 + (i % 5), (i * 3 + j) % 12, 1 + ((i + j) % 27))).toISOString().slice(0, 10),
  })),
);

const columns: Column<Member>[] = [
  { key: 'name', label: 'Name' },
  { key: 'role', label: 'Role' },
  { key: 'email', label: 'Email' },
  { key: 'joined', label: 'Joined', format: (v) => formatDate(String(v)) },
];

export default function Team() {
  return (
    <div data-route="route-team">
      <h1>Team</h1>
      <Card title={`${members.length} members`}>
        <Button>Invite someone</Button>
        <DataTable rows={members} columns={columns} pageSize={12} />
      </Card>
    </div>
  );
}
