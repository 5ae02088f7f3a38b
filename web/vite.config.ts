import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // ECharts and exceljs are big but load only on the screens and clicks that need them.
    chunkSizeWarningLimit: 1100,
  },
});
