// The card's entry: mounts the little classroom and connects it to its MCP
// Apps host, which shows the tool call's input and result and runs code.

import { mount } from 'svelte';
import { config as zodConfig } from 'zod/v4/core';
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';
import Card from './Card.svelte';
import { CardState, type RunArgs } from './card.svelte';
import { langOf } from './i18n';
import { summaryForTutor, type RunView, type ToolResult } from './result';

// The card's CSP allows no eval: zod validates the protocol messages without compiling code.
zodConfig({ jitless: true });

const state = new CardState();
state.lang = langOf(navigator.language) ?? 'en';
mount(Card, { target: document.getElementById('card')!, props: { state } });

const app = new App({ name: 'Kid Coder classroom', version: '0.1.0' }, {}, { autoResize: true });

// Handlers go on before connecting, so no notification is missed.
app.ontoolinputpartial = (params) => state.showPartialInput(params.arguments);
app.ontoolinput = (params) => state.showInput(params.arguments);
app.ontoolresult = (params) => state.showResult(params as ToolResult);
app.ontoolcancelled = () => state.cancelled();
app.onhostcontextchanged = (ctx) => {
  state.lang = langOf(ctx.locale) ?? state.lang;
};

/** Runs are bounded by the server's limits; this only keeps a lost reply from waiting forever. */
const RUN_REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

const host = {
  run: async (args: RunArgs, signal: AbortSignal) =>
    (await app.callServerTool({ name: 'run_python', arguments: { ...args } }, { signal, timeout: RUN_REQUEST_TIMEOUT_MS })) as ToolResult,
  ranByChild: (args: RunArgs, view: RunView) => {
    if (!app.getHostCapabilities()?.updateModelContext) return;
    app.updateModelContext({ content: [{ type: 'text', text: summaryForTutor(args.code, view) }] }).catch(() => {});
  },
};

app
  .connect(new PostMessageTransport(window.parent, window.parent))
  .then(() => {
    const ctx = app.getHostContext();
    if (!state.running && !state.view) state.lang = langOf(ctx?.locale) ?? state.lang;
    state.connect(host, !!ctx?.toolInfo);
  })
  .catch(() => state.disconnected());
