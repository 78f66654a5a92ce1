// Outpost web UI build. `npm run dev` proxies the API to a running `outpost serve`:
// OUTPOST_URL, default http://127.0.0.1:8080.
import { defineConfig } from 'vite';

const target = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env
  .OUTPOST_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/api': { target, ws: true, changeOrigin: true } } },
});
