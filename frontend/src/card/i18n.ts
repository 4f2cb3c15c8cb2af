// The card's words in both languages, kid-friendly; `{name}` marks a value filled in by say().

export type Lang = 'zh' | 'en';

const en = {
  title: 'Kid Coder classroom',
  open: 'Open the classroom',
  close: 'Fold the classroom away',
  tapOpen: 'tap to open',
  codeLabel: '📝 My program',
  codePlaceholder: 'Write your Python program here…',
  run: '▶ Run',
  runTitle: 'Run the program (Ctrl+Enter)',
  running: 'running…',
  stop: '■ Stop',
  stopTitle: 'Stop the program',
  stopped: '⏹ You stopped the program',
  connecting: 'Getting ready…',
  noHost: 'This card only works inside an AI chat that can run programs.',
  answersLabel: '⌨️ Answers for input(), one per line',
  consoleLabel: '💬 Output',
  consoleEmpty: 'Press ▶ Run and what your program prints shows up here.',
  consoleNothing: '(the program printed nothing)',
  drawingLabel: '🎨 Drawing',
  watchAgain: '🔁 Watch again',
  skip: '⏭ Skip to the end',
  plotsLabel: '📊 Charts',
  plotAlt: 'Chart {n}',
  drawingAlt: 'The turtle drawing',
  doneOk: '✅ Finished',
  errorTitle: 'Oops! Something went wrong',
  errorLine: 'line {n}',
  failed: '🤔 The run did not work: {why}',
  noResult: 'The program ran, but no result came back.',
  langSwitch: '中文',
  langTitle: 'Switch to Chinese',
  status_error: '❌ The program stopped with an error',
  status_timeout: '⏱️ Stopped: it ran too long',
  status_memory_limit: '🧠 Stopped: it used too much memory',
  status_output_limit: '📜 Stopped: it printed too much',
  status_killed: '🛑 The program was ended by the computer',
  status_sandbox_unavailable: '🔒 The safety box is not working, so the program did not run',
};

export type MessageKey = keyof typeof en;

const zh: Record<MessageKey, string> = {
  title: 'Kid Coder 小教室',
  open: '打开小教室',
  close: '把小教室收起来',
  tapOpen: '点一下打开',
  codeLabel: '📝 我的程序',
  codePlaceholder: '在这里写你的 Python 程序……',
  run: '▶ 跑一下',
  runTitle: '运行程序（Ctrl+Enter）',
  running: '正在运行……',
  stop: '■ 停止',
  stopTitle: '让程序停下来',
  stopped: '⏹ 你让程序停下来了',
  connecting: '准备中……',
  noHost: '这张卡片要在能运行程序的 AI 聊天里才能用。',
  answersLabel: '⌨️ 给 input() 的回答，每行一个',
  consoleLabel: '💬 输出',
  consoleEmpty: '按 ▶ 跑一下，程序打印的内容会出现在这里。',
  consoleNothing: '（程序没有打印任何内容）',
  drawingLabel: '🎨 画图',
  watchAgain: '🔁 再看一遍',
  skip: '⏭ 直接看结果',
  plotsLabel: '📊 图表',
  plotAlt: '图表 {n}',
  drawingAlt: '小海龟画的图',
  doneOk: '✅ 运行完成',
  errorTitle: '哎呀！出了点问题',
  errorLine: '第 {n} 行',
  failed: '🤔 没能运行：{why}',
  noResult: '程序运行了，但是没有收到结果。',
  langSwitch: 'English',
  langTitle: '切换到英文',
  status_error: '❌ 程序因为错误停下来了',
  status_timeout: '⏱️ 已被叫停：运行时间太长',
  status_memory_limit: '🧠 已被叫停：用了太多内存',
  status_output_limit: '📜 已被叫停：打印的内容太多',
  status_killed: '🛑 程序被电脑结束了',
  status_sandbox_unavailable: '🔒 安全沙盒不能用，所以程序没有运行',
};

export const dictionaries: Record<Lang, Record<MessageKey, string>> = { en, zh };

/** The text for `key` in `lang`, with `{name}` placeholders filled from `params`. */
export function say(lang: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  const text = dictionaries[lang][key];
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : text;
}

/** The card's language for a BCP 47 locale or a `lang` argument: Chinese for zh*, English for any other tag; null when there is none. */
export function langOf(tag: unknown): Lang | null {
  if (typeof tag !== 'string' || tag.trim() === '') return null;
  return /^zh(?:$|[-_])/i.test(tag.trim()) ? 'zh' : 'en';
}
