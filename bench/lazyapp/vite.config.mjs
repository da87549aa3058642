// The app of bench/suite section r, built by Vite: React's plugin, and
// Brotli variants beside the files (vite-plugin-compression2), as bakefs
// writes them.
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

export default {
  logLevel: 'warn',
  plugins: [react(), compression({ algorithms: ['brotliCompress'] })],
  build: { manifest: true, outDir: 'dist', emptyOutDir: true },
};
