/// <reference types="svelte" />
/// <reference types="vite/client" />

/** A group of the message catalogue, picked at build time (vite.messages.ts): each key's text in both languages. */
declare module '*/messages.json?group=limit' {
  const texts: Record<string, { zh: string; en: string }>;
  export default texts;
}
declare module '*/messages.json?group=setup' {
  const texts: Record<string, { zh: string; en: string }>;
  export default texts;
}
