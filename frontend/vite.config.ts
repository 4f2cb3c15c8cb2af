import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { messageGroups } from './vite.messages.ts';

export default defineConfig(({ mode }) => ({
  plugins: [svelte(), messageGroups()],
  // Relative asset paths: Wails serves the embedded folder at its own origin,
  // and the screenshot harness serves it from a plain static server.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  // The classroom card (src/card) bundles the star demo from the lessons folder.
  server: { fs: { allow: ['.', '../backend/lessons/starter'] } },
  // Svelte's client runtime under test, not its server build.
  resolve: mode === 'test' ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
  },
}));
