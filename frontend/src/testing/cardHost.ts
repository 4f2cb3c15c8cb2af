// Entry of the test host page for the classroom card (e2e/browser/card.mjs):
// an MCP Apps host built on the SDK's AppBridge that loads the card in a
// sandboxed iframe and answers its run_python calls through window.runPython,
// which the test provides.

import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';

/** A tool call the host shows the card for, as a chat would after the model called run_python. */
export interface ShownCall {
  arguments: Record<string, unknown>;
  result: Record<string, unknown>;
}

export interface HostOptions {
  /** The card's address. */
  src: string;
  locale: string;
  /** Without it the card opens on its own, as from a resource link. */
  call?: ShownCall;
}

interface HostWindow {
  /** Runs run_python's arguments; `id` names the run for cancelPython. */
  runPython(args: Record<string, unknown>, id: number): Promise<Record<string, unknown>>;
  cancelPython(id: number): Promise<void>;
  cardHost: {
    open(o: HostOptions): Promise<void>;
    calls: Record<string, unknown>[];
    /** Ids of the calls the card cancelled. */
    cancelled: number[];
    /** The texts the card put in the model's context. */
    context: string[];
    initialized: boolean;
  };
}

const w = window as unknown as HostWindow;

w.cardHost = {
  calls: [],
  cancelled: [],
  context: [],
  initialized: false,
  /** Puts the card in a sandboxed iframe and connects the bridge before the card loads. */
  async open(o: HostOptions): Promise<void> {
    const frame = document.createElement('iframe');
    frame.id = 'card';
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.title = 'Kid Coder';
    document.getElementById('column')!.appendChild(frame);
    const context: McpUiHostContext = {
      locale: o.locale,
      theme: 'light',
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      platform: 'web',
    };
    if (o.call) {
      context.toolInfo = {
        id: 1,
        tool: { name: 'run_python', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://kidcoder/classroom.html' } } },
      };
    }
    const bridge = new AppBridge(
      null,
      { name: 'Kid Coder test host', version: '1.0.0' },
      { serverTools: {}, updateModelContext: { text: {} } },
      { hostContext: context },
    );
    bridge.oncalltool = async (params, extra) => {
      const id = w.cardHost.calls.push({ name: params.name, ...params.arguments });
      if (params.name !== 'run_python') throw new Error(`unknown tool ${params.name}`);
      // A cancelled request (notifications/cancelled) stops its run, as the server does.
      extra.mcpReq.signal.addEventListener('abort', () => {
        w.cardHost.cancelled.push(id);
        void w.cancelPython(id);
      });
      return (await w.runPython(params.arguments ?? {}, id)) as never;
    };
    bridge.onupdatemodelcontext = async (params) => {
      for (const block of params.content ?? []) if (block.type === 'text') w.cardHost.context.push(block.text);
      return {};
    };
    bridge.onsizechange = ({ height }) => {
      if (typeof height === 'number') frame.style.height = `${Math.ceil(height)}px`;
    };
    bridge.oninitialized = () => {
      w.cardHost.initialized = true;
      if (!o.call) return;
      void bridge.sendToolInput({ arguments: o.call.arguments }).then(() => bridge.sendToolResult(o.call!.result as never));
    };
    await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
    frame.src = o.src;
  },
};
