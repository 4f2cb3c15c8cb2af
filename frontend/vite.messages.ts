// The catalogue (python/messages.json) is one file for the runner, the Go
// host and the windows, but a bundle needs only a part of it: an import of
// `…/messages.json?group=limit` is the `limit.*` entries alone, picked when
// the bundle is built, so the rest of the catalogue never ships.
import type { Plugin } from 'vite';

const GROUP = /[/\\]messages\.json\?group=([a-z_]+)$/;

export function messageGroups(): Plugin {
  return {
    name: 'kidcoder-message-groups',
    // Before vite's JSON plugin, which leaves a query it does not know alone.
    enforce: 'pre',
    transform(code, id) {
      const m = GROUP.exec(id);
      if (!m) return null;
      const prefix = `${m[1]}.`;
      const all = JSON.parse(code) as Record<string, unknown>;
      const picked = Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith(prefix)));
      if (Object.keys(picked).length === 0) this.error(`messages.json has no ${prefix}* entries`);
      return { code: `export default ${JSON.stringify(picked)};\n`, map: null };
    },
  };
}
