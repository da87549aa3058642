import { useState, type ReactElement } from 'react';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Grid,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  SpeedDial,
  SpeedDialAction,
  SpeedDialIcon,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';
import SendIcon from '@mui/icons-material/Send';
import DraftsIcon from '@mui/icons-material/Drafts';
import ArchiveIcon from '@mui/icons-material/Archive';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import LabelIcon from '@mui/icons-material/Label';
import ReplyIcon from '@mui/icons-material/Reply';
import ForwardIcon from '@mui/icons-material/Forward';
import DeleteIcon from '@mui/icons-material/Delete';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import MarkEmailUnreadIcon from '@mui/icons-material/MarkEmailUnread';
import EditIcon from '@mui/icons-material/Edit';
import CampaignIcon from '@mui/icons-material/Campaign';
import EventIcon from '@mui/icons-material/Event';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { PageHeader } from '../components/PageHeader';
import { useNotify } from '../components/Notify';
import { messages as seed, type Message } from '../data/mock';
import { avatarColor, formatDate, formatTime, initials } from '../data/format';

const folders: { id: Message['folder']; label: string; icon: ReactElement }[] = [
  { id: 'inbox', label: 'Inbox', icon: <InboxIcon /> },
  { id: 'sent', label: 'Sent', icon: <SendIcon /> },
  { id: 'drafts', label: 'Drafts', icon: <DraftsIcon /> },
  { id: 'archive', label: 'Archive', icon: <ArchiveIcon /> },
];

const labelColor: Record<string, 'primary' | 'secondary' | 'error' | 'warning' | 'info'> = {
  work: 'primary',
  billing: 'secondary',
  support: 'info',
  urgent: 'error',
  later: 'warning',
};

export function Inbox() {
  const notify = useNotify();
  const [list, setList] = useState(seed);
  const [folder, setFolder] = useState<Message['folder']>('inbox');
  const [openId, setOpenId] = useState<number | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [composing, setComposing] = useState(false);
  const [draft, setDraft] = useState({ to: '', subject: '', body: '' });

  const inFolder = list.filter((m) => m.folder === folder);
  const open = list.find((m) => m.id === openId) ?? null;
  const update = (id: number, change: Partial<Message>) => setList((l) => l.map((m) => (m.id === id ? { ...m, ...change } : m)));
  const archiveChecked = () => {
    setList((l) => l.map((m) => (checked.has(m.id) ? { ...m, folder: 'archive' } : m)));
    notify(`${checked.size} conversations archived`);
    setChecked(new Set());
  };

  return (
    <>
      <PageHeader title="Inbox" subtitle="Messages from customers and the team" trail={['Workspace', 'Inbox']} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 3 }}>
          <Card>
            <List component="nav" aria-label="folders">
              {folders.map((f) => {
                const unread = list.filter((m) => m.folder === f.id && m.unread).length;
                return (
                  <ListItemButton key={f.id} selected={folder === f.id} onClick={() => setFolder(f.id)}>
                    <ListItemIcon>
                      <Badge badgeContent={unread} color="primary">
                        {f.icon}
                      </Badge>
                    </ListItemIcon>
                    <ListItemText primary={f.label} />
                  </ListItemButton>
                );
              })}
              <Divider sx={{ my: 1 }} />
              {Object.keys(labelColor).map((l) => (
                <ListItemButton key={l} dense>
                  <ListItemIcon>
                    <LabelIcon color={labelColor[l]} />
                  </ListItemIcon>
                  <ListItemText primary={l} />
                </ListItemButton>
              ))}
            </List>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: open ? 5 : 9 }}>
          <Card>
            <Stack direction="row" spacing={1} sx={{ p: 1, alignItems: 'center' }}>
              <Checkbox
                checked={inFolder.length > 0 && inFolder.every((m) => checked.has(m.id))}
                indeterminate={checked.size > 0 && !inFolder.every((m) => checked.has(m.id))}
                onChange={(e) => setChecked(e.target.checked ? new Set(inFolder.map((m) => m.id)) : new Set())}
              />
              <Tooltip title="Archive">
                <span>
                  <IconButton disabled={checked.size === 0} onClick={archiveChecked}>
                    <ArchiveIcon />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title="Mark as read">
                <span>
                  <IconButton
                    disabled={checked.size === 0}
                    onClick={() => {
                      setList((l) => l.map((m) => (checked.has(m.id) ? { ...m, unread: false } : m)));
                      setChecked(new Set());
                    }}
                  >
                    <MarkEmailReadIcon />
                  </IconButton>
                </span>
              </Tooltip>
              <Box sx={{ flexGrow: 1 }} />
              <Typography variant="caption" color="text.secondary" sx={{ pr: 1 }}>
                {inFolder.length} conversations
              </Typography>
            </Stack>
            <Divider />
            <List sx={{ maxHeight: 640, overflowY: 'auto' }} disablePadding>
              {inFolder.map((m) => (
                <ListItemButton
                  key={m.id}
                  selected={m.id === openId}
                  onClick={() => {
                    setOpenId(m.id);
                    update(m.id, { unread: false });
                  }}
                  alignItems="flex-start"
                  divider
                >
                  <Checkbox
                    edge="start"
                    size="small"
                    checked={checked.has(m.id)}
                    onClick={(e) => e.stopPropagation()}
                    onChange={(e) =>
                      setChecked((c) => {
                        const next = new Set(c);
                        if (e.target.checked) next.add(m.id);
                        else next.delete(m.id);
                        return next;
                      })
                    }
                  />
                  <ListItemAvatar>
                    <Avatar sx={{ bgcolor: avatarColor(m.from) }}>{initials(m.from)}</Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <Typography variant="subtitle2" sx={{ fontWeight: m.unread ? 800 : 500, flexGrow: 1 }} noWrap>
                          {m.from}
                        </Typography>
                        <Typography variant="caption" color="text.secondary">
                          {formatDate(m.date)}
                        </Typography>
                      </Stack>
                    }
                    secondary={
                      <>
                        <Typography component="span" variant="body2" color="text.primary" sx={{ display: 'block', fontWeight: m.unread ? 700 : 400 }} noWrap>
                          {m.subject}
                        </Typography>
                        <Typography component="span" variant="body2" color="text.secondary" noWrap sx={{ display: 'block' }}>
                          {m.preview}
                        </Typography>
                      </>
                    }
                  />
                  <IconButton
                    size="small"
                    onClick={(e) => {
                      e.stopPropagation();
                      update(m.id, { starred: !m.starred });
                    }}
                  >
                    {m.starred ? <StarIcon fontSize="small" color="warning" /> : <StarBorderIcon fontSize="small" />}
                  </IconButton>
                </ListItemButton>
              ))}
            </List>
          </Card>
        </Grid>
        {open && (
          <Grid size={{ xs: 12, md: 4 }}>
            <Paper variant="outlined" sx={{ p: 3, position: 'sticky', top: 88 }}>
              <Typography variant="h6">{open.subject}</Typography>
              <Stack direction="row" spacing={1.5} sx={{ my: 2, alignItems: 'center' }}>
                <Avatar sx={{ bgcolor: avatarColor(open.from) }}>{initials(open.from)}</Avatar>
                <Box>
                  <Typography variant="subtitle2">{open.from}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatDate(open.date)} at {formatTime(open.date)}
                  </Typography>
                </Box>
              </Stack>
              <Stack direction="row" spacing={0.5} sx={{ mb: 2 }}>
                {open.labels.map((l) => (
                  <Chip key={l} size="small" label={l} color={labelColor[l]} />
                ))}
              </Stack>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
                {open.preview}
                {'\n\n'}Best regards,{'\n'}
                {open.from}
              </Typography>
              <Chip icon={<AttachFileIcon />} label="report.pdf" variant="outlined" sx={{ mt: 2 }} onClick={() => notify('Downloading report.pdf', 'info')} />
              <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
                <Button variant="contained" startIcon={<ReplyIcon />} onClick={() => setComposing(true)}>
                  Reply
                </Button>
                <Button startIcon={<ForwardIcon />}>Forward</Button>
                <Box sx={{ flexGrow: 1 }} />
                <Tooltip title="Mark as unread">
                  <IconButton onClick={() => update(open.id, { unread: true })}>
                    <MarkEmailUnreadIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title="Delete">
                  <IconButton
                    onClick={() => {
                      setList((l) => l.filter((m) => m.id !== open.id));
                      setOpenId(null);
                      notify('Conversation deleted', 'warning');
                    }}
                  >
                    <DeleteIcon />
                  </IconButton>
                </Tooltip>
              </Stack>
            </Paper>
          </Grid>
        )}
      </Grid>

      <SpeedDial ariaLabel="new" sx={{ position: 'fixed', bottom: 24, right: 24 }} icon={<SpeedDialIcon openIcon={<EditIcon />} />}>
        <SpeedDialAction icon={<SendIcon />} slotProps={{ tooltip: { title: 'New message' } }} onClick={() => setComposing(true)} />
        <SpeedDialAction icon={<CampaignIcon />} slotProps={{ tooltip: { title: 'Announcement' } }} />
        <SpeedDialAction icon={<EventIcon />} slotProps={{ tooltip: { title: 'Meeting' } }} />
        <SpeedDialAction icon={<TaskAltIcon />} slotProps={{ tooltip: { title: 'Task' } }} />
      </SpeedDial>

      <Dialog open={composing} onClose={() => setComposing(false)} fullWidth maxWidth="sm">
        <DialogTitle>New message</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField label="To" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} fullWidth />
          <TextField label="Subject" value={draft.subject} onChange={(e) => setDraft({ ...draft, subject: e.target.value })} fullWidth />
          <TextField label="Message" multiline minRows={6} value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} fullWidth />
        </DialogContent>
        <DialogActions>
          <IconButton aria-label="attach">
            <AttachFileIcon />
          </IconButton>
          <Box sx={{ flexGrow: 1 }} />
          <Button onClick={() => setComposing(false)}>Discard</Button>
          <Button
            variant="contained"
            endIcon={<SendIcon />}
            disabled={!draft.to || !draft.subject}
            onClick={() => {
              setComposing(false);
              setDraft({ to: '', subject: '', body: '' });
              notify('Message sent');
            }}
          >
            Send
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
