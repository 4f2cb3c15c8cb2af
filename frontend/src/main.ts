import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import NoBackend from './components/NoBackend.svelte';
import { hasWails, wailsBackend, type WailsGlobals } from './lib/backend';
import { Classroom } from './lib/classroom.svelte';

async function main() {
  const win = window as unknown as WailsGlobals;
  // The fake stands in only under `npm run dev` without a backend; the
  // condition is false at build time, so production bundles leave it out.
  if (import.meta.env.DEV && !hasWails(win)) {
    const { installFakeWails } = await import('./testing/fakeBackend');
    const params = new URLSearchParams(location.search);
    installFakeWails(win, {
      lang: (params.get('lang') as 'zh' | 'en' | null) ?? '',
      broken: params.has('broken'),
      settingsWarning: params.get('warning') ?? undefined,
    });
  }
  const target = document.getElementById('app')!;
  if (!hasWails(win)) {
    mount(NoBackend, { target });
    return;
  }
  mount(App, { target, props: { room: new Classroom(wailsBackend()) } });
}

void main();
