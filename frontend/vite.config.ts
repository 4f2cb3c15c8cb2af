import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// dist/.gitkeep is committed so that `go:embed all:frontend/dist` compiles
// before any frontend build; emitting it keeps it after the folder is emptied.
function keepDistInGit(): Plugin {
  return {
    name: 'keep-dist-in-git',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '.gitkeep', source: '' });
    },
  };
}

export default defineConfig({
  plugins: [svelte(), keepDistInGit()],
  // Relative asset paths: Wails serves the embedded folder at its own origin,
  // and the screenshot harness serves it from a plain static server.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
  },
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
});
