// Builds the classroom card (src/card) as one self-contained HTML file,
// card/classroom.html, which the Go MCP server embeds and serves as an MCP App.
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { messageGroups } from './vite.messages.ts';

/** Names the built page classroom.html, the name card.go embeds. */
function nameCard(): Plugin {
  return {
    name: 'kidcoder-card-name',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const [key, item] of Object.entries(bundle)) {
        if (item.type === 'asset' && key === 'card.html') item.fileName = 'classroom.html';
      }
    },
  };
}

export default defineConfig({
  plugins: [svelte(), messageGroups(), viteSingleFile({ removeViteModuleLoader: true }), nameCard()],
  base: './',
  publicDir: false,
  build: {
    outDir: 'card',
    // card/ also holds card.go.
    emptyOutDir: false,
    target: 'es2022',
    rollupOptions: { input: 'card.html' },
  },
});
