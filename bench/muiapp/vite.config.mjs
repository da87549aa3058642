// The app of bench/suite section t, built by Vite: React's plugin, and
// Brotli and gzip variants beside the files (vite-plugin-compression2), as
// bakefs writes them. The bundle is one chunk of about 1 MB by design, so
// the chunk size warning starts above it.
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

export default {
  logLevel: 'warn',
  plugins: [react(), compression({ algorithms: ['gzip', 'brotliCompress'] })],
  build: { manifest: true, outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2048 },
};
