// The lessons folder and exercise packs of the fake backend: an in-memory
// folder with the starter lessons, one imported pack, and the same answers
// (and problems, as ProblemError JSON) the Go app gives.

import type {
  CheckOutcome,
  CourseShelf,
  CourseStep,
  Deleted,
  Draft,
  ExerciseProgress,
  ExerciseView,
  Hint,
  KeptBoth,
  Lang,
  Lesson,
  LessonNode,
  LessonsView,
  PackPlan,
  PackSummary,
  Position,
  Problem,
  SaveRequest,
  SaveResult,
  Settings,
} from '../lib/backend';

export interface FakeLessonsOptions {
  /** Start with the folder missing. */
  lessonsMissing?: boolean;
  /** The lesson remembered as open last time. */
  remembered?: string;
  /** What the folder dialog answers; undefined: cancelled. */
  chooseFolder?: string;
  /** Start with the example pack already imported. */
  packImported?: boolean;
  /** A first start: the course shelf was never offered (it then opens by itself). */
  firstStart?: boolean;
}

const PROBLEMS: Record<string, [string, string]> = {
  folder_missing: ['找不到课程文件夹。它可能被移动或删除了。', 'The lessons folder can’t be found. It may have been moved or deleted.'],
  not_found: ['找不到这个课程文件。', 'This lesson file can’t be found.'],
  exists: ['已经有一个同名的文件或文件夹了。', 'A file or folder with that name already exists.'],
  bad_name: ['这个名字不能用作文件名。', 'That name can’t be used as a file name.'],
  conflict: ['文件在别处被修改了，两个版本都会保留。', 'The file was changed somewhere else; both versions will be kept.'],
  nothing_to_undo: ['没有可以撤销的删除。', 'There is no deletion to undo.'],
};

export function problemError(code: string): Error {
  const [zh, en] = PROBLEMS[code] ?? [code, code];
  const p: Problem = { code, zh, en };
  return new Error(JSON.stringify(p));
}

const collator = new Intl.Collator(undefined, { numeric: true });

const STARTERS: Record<string, [string, string]> = {
  '1 star.py': ['', '# A golden star ⭐ 金色的星星\n\n1. Press **Run** and watch the turtle draw a golden star.\n2. Change `"gold"` to `"red"` and run it again.\n\n**中文**：点 **运行**，看小海龟画一颗金色的星星。'],
  '2 flower.py': ['import turtle\n\nt = turtle.Turtle()\nfor i in range(36):\n    t.forward(100)\n    t.left(170)\n', '# A flower 🌸 花\n\nRun it, then change `170` to `160`.'],
  '3 你好.py': ['name = input("你叫什么名字？")\nprint("你好，" + name)\n', '# 你好\n\n程序会问你的名字。'],
  '4 guess.py': ['import random\n\nsecret = random.randint(1, 10)\nprint("Guess!")\n', ''],
};

const PACK_FOLDER = '形状练习 Shapes';
const PACK_LESSON = `${PACK_FOLDER}/01-square.py`;
const PACK_TITLE = { zh: '形状练习', en: 'Shapes' };
const turns = (code: string, deg: number) => new RegExp(`(left|right)\\(\\s*${deg}\\s*\\)`).test(code);
const forward = (code: string, n: number) => new RegExp(`forward\\(\\s*${n}\\s*\\)`).test(code);
/** The example pack's exercises in order: a square, a triangle, and one whose long name must wrap in a narrow sidebar. */
const PACK_EXERCISES: { id: string; title: { zh: string; en: string }; shape: (code: string) => boolean }[] = [
  { id: '01-square', title: { zh: '画正方形', en: 'Draw a square' }, shape: (c) => forward(c, 100) && turns(c, 90) },
  { id: '02-triangle', title: { zh: '三角形', en: 'Triangle' }, shape: (c) => forward(c, 100) && turns(c, 120) },
  { id: '03-big-square', title: { zh: '用循环画一个大大的正方形', en: 'A big square drawn with a loop' }, shape: (c) => forward(c, 200) && turns(c, 90) },
];
const packLesson = (id: string) => `${PACK_FOLDER}/${id}.py`;
const packExercise = (path: string) => PACK_EXERCISES.find((e) => packLesson(e.id) === path);
/** The built-in first-steps course's exercises, for the shelf's map. */
const FIRST_STEPS = [
  ['你好，世界', 'Hello, world'],
  ['变量装东西', 'Boxes called variables'],
  ['问问你的名字', 'What is your name?'],
  ['明年几岁', 'Next year'],
  ['猜数字', 'Guess my number'],
  ['乘法表', 'Times table'],
  ['倒数发射', 'Countdown'],
  ['水果列表', 'Fruit list'],
  ['面积函数', 'An area function'],
  ['小测验', 'Quiz time'],
].map(([zh, en], i) => ({ id: `${String(i + 1).padStart(2, '0')}-step`, title: { zh, en }, solved: false, stars: 0 }));
const PACK_HINTS = [
  { zh: '正方形有 4 条一样长的边，每画一条边就向左转 90 度。', en: 'A square has 4 equal sides: after each side, turn left 90 degrees.' },
  { zh: '用 for _ in range(4): 把画边和转弯重复 4 次。', en: 'Use for _ in range(4): to repeat drawing a side and turning 4 times.' },
];
const PACK_MD = {
  zh: '## 画正方形\n\n用 `for` 循环让海龟画一个边长 100 的**正方形**。\n\n1. 向前走 100\n2. 向左转 90 度\n3. 重复 4 次',
  en: '## Draw a square\n\nUse a `for` loop to make the turtle draw a **square** with sides of 100.\n\n1. Go forward 100\n2. Turn left 90 degrees\n3. Do it 4 times',
};
const PACK_CHECKS = [
  { zh: '海龟应该画出一个有 4 个直角的正方形。', en: 'The turtle should draw a square: 4 sides and 4 right angles.' },
  { zh: '试试用 for 循环，不要把同样的代码写 4 遍。', en: 'Try a for loop instead of writing the same lines 4 times.' },
  { zh: '画完后海龟应该回到起点。', en: 'When it is done, the turtle should be back where it started.' },
];

interface FileEntry {
  content: string;
  version: string;
  md: string;
}

export function createFakeLessons(opts: FakeLessonsOptions, starDemo: string, settings: () => Settings, setSettings: (s: Settings) => void) {
  let root = '/home/kid/Documents/Kid Coder';
  let missing = !!opts.lessonsMissing;
  let seq = 1;
  const files = new Map<string, FileEntry>();
  const groups = new Set<string>();
  const trash = new Map<string, { files: Map<string, FileEntry>; groups: string[] }>();
  let state: { open?: string; positions: Record<string, Position> } = { open: opts.remembered, positions: {} };
  const progress: Record<string, ExerciseProgress> = Object.fromEntries(PACK_EXERCISES.map((e) => [e.id, { solved: false, attempts: 0, stars: 0, hints_shown: 0 }]));
  const steps = (withLessons: boolean): CourseStep[] =>
    PACK_EXERCISES.map((e) => ({
      id: e.id,
      title: e.title,
      ...(withLessons ? { lesson: packLesson(e.id) } : {}),
      solved: progress[e.id].solved,
      stars: progress[e.id].stars,
    }));
  const solvedCount = () => PACK_EXERCISES.filter((e) => progress[e.id].solved).length;
  const starCount = () => PACK_EXERCISES.reduce((n, e) => n + progress[e.id].stars, 0);
  const dirty = new Set<string>();
  /** Closing, as the Go app does it: whether the window listens, was asked, and answered. */
  const closing = { listens: false, asked: false, closed: false };

  const version = () => `v${seq++}`;
  for (const [name, [code, md]] of Object.entries(STARTERS)) files.set(name, { content: name === '1 star.py' ? starDemo : code, version: version(), md });
  const importPack = (lang: Lang) => {
    groups.add(PACK_FOLDER);
    for (const e of PACK_EXERCISES) {
      const md = e.id === '01-square' ? PACK_MD[lang] : `## ${e.title[lang]}\n\n${lang === 'zh' ? '用海龟画出来。' : 'Draw it with the turtle.'}`;
      if (!files.has(packLesson(e.id))) files.set(packLesson(e.id), { content: `import turtle\n\nt = turtle.Turtle()\n# ${e.title.en}\n`, version: version(), md });
    }
  };
  if (opts.packImported) importPack('zh');
  let coursesOffered = !opts.firstStart;

  function check(): void {
    if (missing) throw problemError('folder_missing');
  }

  function tree(): LessonNode {
    const top: LessonNode = { name: 'Kid Coder', path: '', kind: 'group', children: [] };
    const nodes = new Map<string, LessonNode>([['', top]]);
    const parentNode = (p: string): LessonNode => {
      const i = p.lastIndexOf('/');
      const parent = i < 0 ? '' : p.slice(0, i);
      return nodes.get(parent) ?? top;
    };
    for (const g of [...groups].sort((a, b) => a.split('/').length - b.split('/').length)) {
      const n: LessonNode = { name: g.slice(g.lastIndexOf('/') + 1), path: g, kind: 'group', children: [] };
      nodes.set(g, n);
      parentNode(g).children!.push(n);
    }
    for (const [p, f] of files) {
      const name = p.slice(p.lastIndexOf('/') + 1, -3);
      const node: LessonNode = { name, path: p, kind: 'lesson', instructions: !!f.md };
      const ex = packExercise(p);
      if (ex) node.title = ex.title;
      parentNode(p).children!.push(node);
    }
    const sort = (n: LessonNode) => {
      n.children!.sort((a, b) => (a.kind !== b.kind ? (a.kind === 'group' ? -1 : 1) : collator.compare(a.name, b.name)));
      n.children!.forEach((c) => c.children && sort(c));
    };
    sort(top);
    return top;
  }

  function lesson(path: string): Lesson {
    const f = files.get(path);
    if (!f) throw problemError('not_found');
    return { path, name: path.slice(path.lastIndexOf('/') + 1, -3), content: f.content, version: f.version, encoding: 'utf-8', needsConversion: false, instructions: f.md };
  }

  const progressOf = (id: string): ExerciseProgress => progress[id];

  function checkName(name: string): void {
    if (!name || name.includes('/') || name.startsWith('.') || name.trim() !== name) throw problemError('bad_name');
  }

  function exercise(path: string, lang: Lang): ExerciseView | null {
    const ex = packExercise(path);
    if (!ex || !files.has(path)) return null;
    const p = progress[ex.id];
    const hints: Hint[] = PACK_HINTS.slice(0, p.hints_shown).map((h, index) => ({ index, total: PACK_HINTS.length, text: h[lang] }));
    return {
      packTitle: PACK_TITLE,
      packFolder: PACK_FOLDER,
      id: ex.id,
      title: ex.title,
      instructions: files.get(path)!.md,
      checks: PACK_CHECKS.length,
      hintsTotal: PACK_HINTS.length,
      hints,
      progress: { ...p },
      steps: steps(true),
    };
  }

  const plan = (lang: Lang): PackPlan => ({
    id: 'example.shapes',
    version: '1.0.0',
    origin: 'unsigned',
    signer: 'unsigned',
    title: PACK_TITLE,
    description: { zh: '用海龟画正方形、三角形和星星。', en: 'Draw squares, triangles and stars with the turtle.' },
    author: 'Ms. Li 李老师',
    folder: PACK_FOLDER,
    previous: groups.has(PACK_FOLDER) ? '1.0.0' : '',
    exercises: PACK_EXERCISES.map((e) => ({ id: e.id, title: e.title, lesson: packLesson(e.id), new: !files.has(packLesson(e.id)) })),
    writes: PACK_EXERCISES.flatMap((e) => [`${PACK_FOLDER}/${e.id}.md`, ...(files.has(packLesson(e.id)) ? [] : [packLesson(e.id)])]),
    kept: PACK_EXERCISES.map((e) => packLesson(e.id)).filter((p) => files.has(p)),
  });

  return {
    /** Changes a lesson as another program would; returns the new version. */
    changeOnDisk(path: string, content: string): string {
      const f = files.get(path)!;
      f.content = content;
      f.version = version();
      return f.version;
    },
    /** Renames a lesson as another program would (mv); returns its version, which a rename keeps. */
    renameOnDisk(from: string, to: string): string {
      const f = files.get(from)!;
      files.delete(from);
      files.set(to, f);
      if (dirty.delete(from)) dirty.add(to);
      return f.version;
    },
    /**
     * The window is being closed (the app's BeforeClose): true when the
     * window is asked for its text first, with EventClosing, which the
     * caller emits; false when it closes at once.
     */
    askToClose(): boolean {
      if (!closing.listens || closing.closed) return false;
      closing.asked = true;
      return true;
    },
    /** The window answered finally, and the app would close it now. */
    closed: () => closing.closed,
    isDirty: (path: string) => dirty.has(path),
    content: (path: string) => files.get(path)?.content,
    api: {
      lessons: async (): Promise<LessonsView> =>
        missing
          ? { root, tree: null, problem: { code: 'folder_missing', zh: PROBLEMS.folder_missing[0], en: PROBLEMS.folder_missing[1] } }
          : { root, tree: tree(), open: state.open, positions: state.positions },
      openLesson: async (path: string) => (check(), lesson(path)),
      setLessonDirty: async (path: string, d: boolean) => void (d ? dirty.add(path) : dirty.delete(path)),
      askOnClose: async () => void (closing.listens = true),
      // The text handed over is what the app's shutdown writes, keeping both on a conflict.
      closeReady: async (d: Draft, final: boolean) => {
        if (!closing.asked) throw new Error('the window was not asked to close');
        if (closing.closed) return;
        closing.closed = final;
        if (!final || !d.path) return;
        const f = files.get(d.path);
        if (f && d.version && f.version !== d.version) files.set(d.path.replace(/\.py$/, ' (from disk).py'), { ...f, version: version() });
        files.set(d.path, { content: d.content, version: version(), md: f?.md ?? '' });
      },
      saveLesson: async (req: SaveRequest): Promise<SaveResult> => {
        check();
        const f = files.get(req.path);
        if (f && req.version && f.version !== req.version) throw problemError('conflict');
        const v = version();
        files.set(req.path, { content: req.content, version: v, md: f?.md ?? '' });
        return { path: req.path, version: v, encoding: 'utf-8' };
      },
      keepBothLesson: async (req: SaveRequest): Promise<KeptBoth> => {
        check();
        const f = files.get(req.path);
        let asidePath = '';
        if (f) {
          asidePath = req.path.replace(/\.py$/, ' (from disk).py');
          files.set(asidePath, { ...f, version: version() });
        }
        const v = version();
        files.set(req.path, { content: req.content, version: v, md: f?.md ?? '' });
        return { path: req.path, version: v, encoding: 'utf-8', asidePath };
      },
      newLesson: async (group: string, name: string) => {
        check();
        name = name.replace(/\.py$/, '');
        checkName(name);
        const path = (group ? group + '/' : '') + name + '.py';
        if (files.has(path)) throw problemError('exists');
        files.set(path, { content: '', version: version(), md: '' });
        return path;
      },
      newGroup: async (parent: string, name: string) => {
        check();
        checkName(name);
        const path = (parent ? parent + '/' : '') + name;
        if (groups.has(path)) throw problemError('exists');
        groups.add(path);
        return path;
      },
      renameLesson: async (path: string, newName: string) => {
        check();
        const isLesson = path.endsWith('.py');
        newName = newName.replace(/\.py$/, '');
        checkName(newName);
        const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
        const to = dir + newName + (isLesson ? '.py' : '');
        if (files.has(to) || groups.has(to)) throw problemError('exists');
        if (isLesson) {
          const f = files.get(path);
          if (!f) throw problemError('not_found');
          files.delete(path);
          files.set(to, f);
        } else {
          if (!groups.has(path)) throw problemError('not_found');
          for (const g of [...groups]) if (g === path || g.startsWith(path + '/')) (groups.delete(g), groups.add(to + g.slice(path.length)));
          for (const [p, f] of [...files]) if (p.startsWith(path + '/')) (files.delete(p), files.set(to + p.slice(path.length), f));
        }
        return to;
      },
      duplicateLesson: async (path: string) => {
        check();
        const f = files.get(path);
        if (!f) throw problemError('not_found');
        for (let n = 2; ; n++) {
          const copy = path.replace(/( \(\d+\))?\.py$/, ` (${n}).py`);
          if (!files.has(copy)) {
            files.set(copy, { ...f, version: version() });
            return copy;
          }
        }
      },
      deleteLesson: async (path: string): Promise<Deleted> => {
        check();
        const moved = new Map<string, FileEntry>();
        const movedGroups: string[] = [];
        for (const [p, f] of [...files]) if (p === path || p.startsWith(path + '/')) (moved.set(p, f), files.delete(p));
        for (const g of [...groups]) if (g === path || g.startsWith(path + '/')) (movedGroups.push(g), groups.delete(g));
        if (!moved.size && !movedGroups.length) throw problemError('not_found');
        const id = `del-${seq++}`;
        trash.set(id, { files: moved, groups: movedGroups });
        return { id, paths: [path], when: new Date().toISOString() };
      },
      undoDelete: async (id: string) => {
        const t = trash.get(id);
        if (!t) throw problemError('nothing_to_undo');
        trash.delete(id);
        t.groups.forEach((g) => groups.add(g));
        for (const [p, f] of t.files) files.set(p, f);
        return [...t.files.keys()];
      },
      rememberLesson: async (path: string, pos: Position) => {
        state = { open: path, positions: { ...state.positions, [path]: pos } };
      },
      chooseLessonsFolder: async (): Promise<Settings | null> => {
        if (!opts.chooseFolder) return null;
        root = opts.chooseFolder;
        missing = false;
        const s = { ...settings(), lessonsDir: root };
        setSettings(s);
        return s;
      },
      choosePackFile: async () => '/home/kid/Downloads/shapes.kidpack',
      previewPack: async (_file: string, lang: Lang) => (check(), plan(lang)),
      importPack: async (_file: string, lang: Lang) => {
        check();
        const p = plan(lang);
        importPack(lang);
        return p;
      },
      lessonExercise: async (path: string, lang: Lang) => exercise(path, lang),
      checkLesson: async (req: { path: string; code: string; lang: Lang }): Promise<CheckOutcome> => {
        await new Promise((r) => setTimeout(r, 150));
        const ex = packExercise(req.path) ?? PACK_EXERCISES[0];
        const progress = progressOf(ex.id);
        const loop = /\bfor\b/.test(req.code);
        const square = ex.shape(req.code);
        const oks = [square, loop, square];
        const passed = oks.every(Boolean);
        progress.attempts++;
        if (passed) {
          progress.solved = true;
          progress.stars = Math.max(progress.stars, 3 - (progress.hints_shown > 0 ? 1 : 0) - (progress.attempts > 3 ? 1 : 0));
        }
        progress.last_attempt = new Date().toISOString();
        return {
          report: {
            exercise: ex.id,
            passed,
            budget_seconds: 60,
            results: oks.map((ok, index) => ({ index, type: index === 1 ? 'source' : 'turtle', ok, message: ok ? undefined : PACK_CHECKS[index][req.lang] })),
          },
          progress: { ...progress },
        };
      },
      revealHint: async (path: string, lang: Lang): Promise<Hint> => {
        const progress = progressOf(packExercise(path)?.id ?? '01-square');
        if (progress.hints_shown < PACK_HINTS.length) progress.hints_shown++;
        const i = progress.hints_shown - 1;
        return { index: i, total: PACK_HINTS.length, text: PACK_HINTS[i][lang] };
      },
      courses: async (): Promise<CourseShelf> => ({
        courses: [
          {
            name: 'turtle-shapes',
            title: PACK_TITLE,
            description: { zh: '用海龟画正方形、三角形和星星。', en: 'Draw squares, triangles and stars with the turtle.' },
            exercises: PACK_EXERCISES.length,
            folder: groups.has(PACK_FOLDER) ? PACK_FOLDER : undefined,
            solved: solvedCount(),
            stars: starCount(),
            maxStars: 3 * PACK_EXERCISES.length,
            steps: steps(false),
          },
          {
            name: 'first-steps',
            title: { zh: 'Python 第一课', en: 'First steps' },
            description: { zh: 'print、变量、input、if、for 和列表。', en: 'print, variables, input, if, for and lists.' },
            exercises: 10,
            solved: 0,
            stars: 0,
            maxStars: 30,
            steps: FIRST_STEPS,
          },
        ],
        offer: !coursesOffered && !groups.has(PACK_FOLDER),
      }),
      importCourse: async (name: string, lang: Lang): Promise<PackPlan> => {
        if (name !== 'turtle-shapes') throw new Error(`no built-in pack ${name}`);
        const p = plan(lang);
        importPack(lang);
        return p;
      },
      offerCoursesDone: async () => {
        coursesOffered = true;
      },
      packProgress: async (): Promise<PackSummary[]> =>
        groups.has(PACK_FOLDER)
          ? [
              {
                folder: PACK_FOLDER,
                id: 'example.shapes',
                version: '1.0.0',
                origin: 'unsigned',
                signer: 'unsigned',
                title: PACK_TITLE,
                exercises: PACK_EXERCISES.length,
                solved: solvedCount(),
                attempts: PACK_EXERCISES.reduce((n, e) => n + progress[e.id].attempts, 0),
                stars: starCount(),
                max_stars: 3 * PACK_EXERCISES.length,
                hints_shown: PACK_EXERCISES.reduce((n, e) => n + progress[e.id].hints_shown, 0),
                last_attempt: PACK_EXERCISES.map((e) => progress[e.id].last_attempt).filter(Boolean).sort().at(-1),
                progress: Object.fromEntries(PACK_EXERCISES.map((e) => [e.id, { ...progress[e.id] }])),
              },
            ]
          : [],
    },
  };
}
