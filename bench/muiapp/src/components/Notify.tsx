import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Alert, Button, Snackbar, type AlertColor } from '@mui/material';

interface Notice {
  key: number;
  message: string;
  severity: AlertColor;
  undo?: () => void;
}

type Notify = (message: string, severity?: AlertColor, undo?: () => void) => void;

const NotifyContext = createContext<Notify>(() => {});

/** Shows one snackbar at a time for the notices its children send with useNotify. */
export function NotifyProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);
  const notify = useCallback<Notify>((message, severity = 'success', undo) => {
    setNotice({ key: Date.now(), message, severity, undo });
    setOpen(true);
  }, []);
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <Snackbar
        key={notice?.key}
        open={open}
        autoHideDuration={4000}
        onClose={(_, reason) => reason !== 'clickaway' && setOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          onClose={() => setOpen(false)}
          severity={notice?.severity ?? 'info'}
          variant="filled"
          sx={{ width: '100%' }}
          action={
            notice?.undo ? (
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  notice.undo?.();
                  setOpen(false);
                }}
              >
                Undo
              </Button>
            ) : undefined
          }
        >
          {notice?.message}
        </Alert>
      </Snackbar>
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NotifyContext);
}
