import { useState, type ReactNode } from 'react';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  AlertTitle,
  Autocomplete,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  Chip,
  Divider,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Grid,
  IconButton,
  InputAdornment,
  InputLabel,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  MenuItem,
  OutlinedInput,
  Radio,
  RadioGroup,
  Select,
  Slider,
  Stack,
  Step,
  StepContent,
  StepLabel,
  Stepper,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import type { PaletteMode } from '@mui/material';
import PersonIcon from '@mui/icons-material/Person';
import NotificationsIcon from '@mui/icons-material/Notifications';
import SecurityIcon from '@mui/icons-material/Security';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import PaletteIcon from '@mui/icons-material/Palette';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import LockIcon from '@mui/icons-material/Lock';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import FingerprintIcon from '@mui/icons-material/Fingerprint';
import ComputerIcon from '@mui/icons-material/Computer';
import TabletIcon from '@mui/icons-material/Tablet';
import SmartphoneIcon from '@mui/icons-material/Smartphone';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import SaveIcon from '@mui/icons-material/Save';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import InfoIcon from '@mui/icons-material/Info';
import TranslateIcon from '@mui/icons-material/Translate';
import ScheduleIcon from '@mui/icons-material/Schedule';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import { PageHeader } from '../components/PageHeader';
import { useNotify } from '../components/Notify';

const timeZones = ['UTC', 'Europe/Paris', 'Europe/London', 'Europe/Berlin', 'America/New_York', 'America/Chicago', 'America/Los_Angeles', 'America/Sao_Paulo', 'Asia/Tokyo', 'Asia/Singapore', 'Australia/Sydney'];
const languages = [
  { code: 'en', label: 'English' },
  { code: 'fr', label: 'Français' },
  { code: 'de', label: 'Deutsch' },
  { code: 'es', label: 'Español' },
  { code: 'pt', label: 'Português' },
  { code: 'ja', label: '日本語' },
];
const skills = ['Analytics', 'Billing', 'Catalog', 'Fulfilment', 'Marketing', 'Support', 'Security', 'Engineering'];

function TabPanel({ value, id, children }: { value: string; id: string; children: ReactNode }) {
  return (
    <Box role="tabpanel" hidden={value !== id} id={`settings-${id}`} sx={{ pt: 3 }}>
      {value === id && children}
    </Box>
  );
}

interface SettingsProps {
  mode: PaletteMode;
  onToggleMode: () => void;
}

export function Settings({ mode, onToggleMode }: SettingsProps) {
  const notify = useNotify();
  const [tab, setTab] = useState('profile');
  const [profile, setProfile] = useState({ first: 'Ada', last: 'Lovelace', email: 'ada@northwind.example', role: 'owner', timeZone: 'Europe/London', language: languages[0], bio: 'Runs the store.', skills: ['Analytics', 'Engineering'] });
  const [channels, setChannels] = useState({ email: true, push: false, sms: false });
  const [events, setEvents] = useState({ orders: true, refunds: true, reviews: false, stock: true, digest: true });
  const [digestHour, setDigestHour] = useState(8);
  const [showPassword, setShowPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [twoFactor, setTwoFactor] = useState<'app' | 'sms' | 'key'>('app');
  const [density, setDensity] = useState(2);
  const [onboarding, setOnboarding] = useState(1);

  const strength = Math.min(100, password.length * 8 + (/[A-Z]/.test(password) ? 15 : 0) + (/[0-9]/.test(password) ? 15 : 0) + (/[^A-Za-z0-9]/.test(password) ? 20 : 0));
  const save = () => notify('Settings saved');
  const onboardingSteps = [
    { label: 'Connect your store', text: 'Link the storefront so orders flow into the console.' },
    { label: 'Invite your team', text: 'Give support and fulfilment their own accounts and roles.' },
    { label: 'Set up payouts', text: 'Add a bank account; payouts run every Monday.' },
    { label: 'Go live', text: 'Turn on notifications and publish the catalog.' },
  ];

  return (
    <>
      <PageHeader
        title="Settings"
        subtitle="Your profile, notifications, security and billing"
        trail={['Workspace', 'Settings']}
        actions={
          <Button variant="contained" startIcon={<SaveIcon />} onClick={save}>
            Save changes
          </Button>
        }
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Card>
            <Tabs value={tab} onChange={(_, v: string) => setTab(v)} variant="scrollable" sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
              <Tab value="profile" icon={<PersonIcon />} iconPosition="start" label="Profile" />
              <Tab value="notifications" icon={<NotificationsIcon />} iconPosition="start" label="Notifications" />
              <Tab value="security" icon={<SecurityIcon />} iconPosition="start" label="Security" />
              <Tab value="appearance" icon={<PaletteIcon />} iconPosition="start" label="Appearance" />
              <Tab value="billing" icon={<CreditCardIcon />} iconPosition="start" label="Billing" />
            </Tabs>
            <CardContent>
              <TabPanel value={tab} id="profile">
                <Stack direction="row" spacing={2} sx={{ mb: 3, alignItems: 'center' }}>
                  <Avatar sx={{ width: 72, height: 72, bgcolor: 'secondary.main', fontSize: 28 }}>AL</Avatar>
                  <Button component="label" variant="outlined" startIcon={<CloudUploadIcon />}>
                    Upload photo
                    <input hidden type="file" accept="image/*" />
                  </Button>
                </Stack>
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <TextField label="First name" fullWidth value={profile.first} onChange={(e) => setProfile({ ...profile, first: e.target.value })} />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <TextField label="Last name" fullWidth value={profile.last} onChange={(e) => setProfile({ ...profile, last: e.target.value })} />
                  </Grid>
                  <Grid size={12}>
                    <TextField label="Email" type="email" fullWidth value={profile.email} onChange={(e) => setProfile({ ...profile, email: e.target.value })} helperText="Used to sign in and for invoices" />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormControl fullWidth size="small">
                      <InputLabel id="role">Role</InputLabel>
                      <Select labelId="role" label="Role" value={profile.role} onChange={(e) => setProfile({ ...profile, role: e.target.value })}>
                        <MenuItem value="owner">Owner</MenuItem>
                        <MenuItem value="admin">Administrator</MenuItem>
                        <MenuItem value="support">Support</MenuItem>
                        <MenuItem value="viewer">Viewer</MenuItem>
                      </Select>
                    </FormControl>
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Autocomplete
                      options={timeZones}
                      value={profile.timeZone}
                      disableClearable
                      onChange={(_, v) => setProfile({ ...profile, timeZone: v })}
                      renderInput={(params) => <TextField {...params} label="Time zone" />}
                    />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Autocomplete
                      options={languages}
                      value={profile.language}
                      disableClearable
                      getOptionLabel={(l) => l.label}
                      isOptionEqualToValue={(a, b) => a.code === b.code}
                      onChange={(_, v) => setProfile({ ...profile, language: v })}
                      renderInput={(params) => (
                        <TextField
                          {...params}
                          label="Language"
                          slotProps={{
                            input: {
                              ...params.InputProps,
                              startAdornment: (
                                <InputAdornment position="start">
                                  <TranslateIcon fontSize="small" />
                                </InputAdornment>
                              ),
                            },
                          }}
                        />
                      )}
                    />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Autocomplete multiple options={skills} value={profile.skills} onChange={(_, v) => setProfile({ ...profile, skills: v })} renderInput={(params) => <TextField {...params} label="Areas" />} />
                  </Grid>
                  <Grid size={12}>
                    <TextField label="About you" multiline minRows={3} fullWidth value={profile.bio} onChange={(e) => setProfile({ ...profile, bio: e.target.value })} />
                  </Grid>
                </Grid>
              </TabPanel>

              <TabPanel value={tab} id="notifications">
                <FormControl component="fieldset" sx={{ mb: 3 }}>
                  <FormLabel component="legend">Send notifications by</FormLabel>
                  <FormGroup row>
                    {(Object.keys(channels) as (keyof typeof channels)[]).map((k) => (
                      <FormControlLabel key={k} control={<Switch checked={channels[k]} onChange={(e) => setChannels({ ...channels, [k]: e.target.checked })} />} label={k === 'sms' ? 'SMS' : k[0].toUpperCase() + k.slice(1)} />
                    ))}
                  </FormGroup>
                  <FormHelperText>{Object.values(channels).some(Boolean) ? 'You will be notified.' : 'You will not be notified at all.'}</FormHelperText>
                </FormControl>
                <FormControl component="fieldset" sx={{ display: 'block', mb: 3 }}>
                  <FormLabel component="legend">Tell me about</FormLabel>
                  <FormGroup>
                    <FormControlLabel control={<Checkbox checked={events.orders} onChange={(e) => setEvents({ ...events, orders: e.target.checked })} />} label="New orders" />
                    <FormControlLabel control={<Checkbox checked={events.refunds} onChange={(e) => setEvents({ ...events, refunds: e.target.checked })} />} label="Refund requests" />
                    <FormControlLabel control={<Checkbox checked={events.reviews} onChange={(e) => setEvents({ ...events, reviews: e.target.checked })} />} label="Product reviews" />
                    <FormControlLabel control={<Checkbox checked={events.stock} onChange={(e) => setEvents({ ...events, stock: e.target.checked })} />} label="Low stock" />
                    <FormControlLabel control={<Checkbox checked={events.digest} onChange={(e) => setEvents({ ...events, digest: e.target.checked })} />} label="Daily digest" />
                  </FormGroup>
                </FormControl>
                <Box sx={{ maxWidth: 420 }}>
                  <Typography gutterBottom sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <ScheduleIcon fontSize="small" /> Digest at {digestHour}:00
                  </Typography>
                  <Slider
                    value={digestHour}
                    disabled={!events.digest}
                    onChange={(_, v) => setDigestHour(v as number)}
                    min={0}
                    max={23}
                    step={1}
                    marks={[0, 6, 12, 18, 23].map((h) => ({ value: h, label: `${h}h` }))}
                    valueLabelDisplay="auto"
                  />
                </Box>
              </TabPanel>

              <TabPanel value={tab} id="security">
                <Stack spacing={3} sx={{ maxWidth: 520 }}>
                  <FormControl variant="outlined" size="small">
                    <InputLabel htmlFor="new-password">New password</InputLabel>
                    <OutlinedInput
                      id="new-password"
                      type={showPassword ? 'text' : 'password'}
                      value={password}
                      onChange={(e) => setPassword(e.target.value)}
                      label="New password"
                      startAdornment={
                        <InputAdornment position="start">
                          <LockIcon fontSize="small" />
                        </InputAdornment>
                      }
                      endAdornment={
                        <InputAdornment position="end">
                          <IconButton aria-label={showPassword ? 'hide password' : 'show password'} onClick={() => setShowPassword((s) => !s)} edge="end">
                            {showPassword ? <VisibilityOffIcon /> : <VisibilityIcon />}
                          </IconButton>
                        </InputAdornment>
                      }
                    />
                    <FormHelperText>Strength: {strength < 40 ? 'weak' : strength < 75 ? 'fair' : 'strong'}</FormHelperText>
                  </FormControl>
                  <FormControl>
                    <FormLabel id="two-factor">Two-factor authentication</FormLabel>
                    <RadioGroup aria-labelledby="two-factor" value={twoFactor} onChange={(e) => setTwoFactor(e.target.value as typeof twoFactor)}>
                      <FormControlLabel value="app" control={<Radio />} label={<Chip icon={<VpnKeyIcon />} label="Authenticator app" variant="outlined" />} />
                      <FormControlLabel value="sms" control={<Radio />} label={<Chip icon={<SmartphoneIcon />} label="Text message" variant="outlined" />} />
                      <FormControlLabel value="key" control={<Radio />} label={<Chip icon={<FingerprintIcon />} label="Security key" variant="outlined" />} />
                    </RadioGroup>
                  </FormControl>
                  <Box>
                    <Typography variant="subtitle2" gutterBottom>
                      Signed-in devices
                    </Typography>
                    <List dense>
                      <ListItem secondaryAction={<Chip size="small" color="success" label="this device" />}>
                        <ListItemIcon>
                          <ComputerIcon />
                        </ListItemIcon>
                        <ListItemText primary="Firefox on Linux" secondary="London · now" />
                      </ListItem>
                      <ListItem secondaryAction={<Button size="small">Sign out</Button>}>
                        <ListItemIcon>
                          <SmartphoneIcon />
                        </ListItemIcon>
                        <ListItemText primary="Safari on iPhone" secondary="London · 2 hours ago" />
                      </ListItem>
                      <ListItem secondaryAction={<Button size="small">Sign out</Button>}>
                        <ListItemIcon>
                          <TabletIcon />
                        </ListItemIcon>
                        <ListItemText primary="Chrome on Android tablet" secondary="Paris · 3 days ago" />
                      </ListItem>
                    </List>
                  </Box>
                </Stack>
              </TabPanel>

              <TabPanel value={tab} id="appearance">
                <Stack spacing={3} sx={{ maxWidth: 480 }}>
                  <FormControlLabel
                    control={<Switch checked={mode === 'dark'} onChange={onToggleMode} />}
                    label={
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <DarkModeIcon fontSize="small" />
                        <span>Dark mode</span>
                      </Stack>
                    }
                  />
                  <Box>
                    <Typography gutterBottom>Density</Typography>
                    <Slider
                      value={density}
                      onChange={(_, v) => setDensity(v as number)}
                      step={1}
                      min={1}
                      max={3}
                      marks={[
                        { value: 1, label: 'Compact' },
                        { value: 2, label: 'Default' },
                        { value: 3, label: 'Comfortable' },
                      ]}
                    />
                  </Box>
                </Stack>
              </TabPanel>

              <TabPanel value={tab} id="billing">
                <Alert severity="info" icon={<InfoIcon />} sx={{ mb: 3 }}>
                  <AlertTitle>Pro plan</AlertTitle>
                  Your next invoice of $49.00 is due on December 1.
                </Alert>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField label="Card holder" fullWidth defaultValue="Ada Lovelace" />
                  <TextField
                    label="Card number"
                    fullWidth
                    defaultValue="4242 4242 4242 4242"
                    slotProps={{
                      input: {
                        startAdornment: (
                          <InputAdornment position="start">
                            <CreditCardIcon fontSize="small" />
                          </InputAdornment>
                        ),
                      },
                    }}
                  />
                </Stack>
                <Button sx={{ mt: 2 }} startIcon={<ReceiptLongIcon />}>
                  Download past invoices
                </Button>
              </TabPanel>
            </CardContent>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, lg: 4 }}>
          <Card sx={{ mb: 3 }}>
            <CardHeader title="Getting started" subheader={`${onboarding} of ${onboardingSteps.length} done`} />
            <CardContent>
              <Stepper activeStep={onboarding} orientation="vertical">
                {onboardingSteps.map((s, i) => (
                  <Step key={s.label}>
                    <StepLabel optional={i === onboardingSteps.length - 1 ? <Typography variant="caption">Last step</Typography> : undefined}>{s.label}</StepLabel>
                    <StepContent>
                      <Typography variant="body2" color="text.secondary">
                        {s.text}
                      </Typography>
                      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
                        <Button size="small" variant="contained" onClick={() => setOnboarding(i + 1)}>
                          {i === onboardingSteps.length - 1 ? 'Finish' : 'Continue'}
                        </Button>
                        <Button size="small" disabled={i === 0} onClick={() => setOnboarding(i - 1)}>
                          Back
                        </Button>
                      </Stack>
                    </StepContent>
                  </Step>
                ))}
              </Stepper>
              {onboarding === onboardingSteps.length && (
                <Alert icon={<CheckCircleIcon />} severity="success" action={<Button onClick={() => setOnboarding(0)}>Reset</Button>}>
                  All set.
                </Alert>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader title="Questions" />
            <Divider />
            {[
              ['How do I change the store currency?', 'Currencies are set per storefront in Commerce → Stores. Existing orders keep the currency they were placed in.'],
              ['Can support agents issue refunds?', 'Yes, up to the limit set for their role. Larger refunds wait for an administrator.'],
              ['Where are exports kept?', 'Every export is kept for 30 days under Reports and sent to the email of whoever asked for it.'],
              ['How do I delete my account?', 'Only the owner can close the workspace, from Billing, after the last invoice is paid.'],
            ].map(([q, a]) => (
              <Accordion key={q} disableGutters elevation={0} square>
                <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {q}
                  </Typography>
                </AccordionSummary>
                <AccordionDetails>
                  <Typography variant="body2" color="text.secondary">
                    {a}
                  </Typography>
                </AccordionDetails>
              </Accordion>
            ))}
          </Card>
        </Grid>
      </Grid>
    </>
  );
}
