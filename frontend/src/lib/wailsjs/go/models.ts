export namespace app {
	
	export class CheckOutcome {
	    report?: packs.Report;
	    progress: packs.ExerciseProgress;
	    run?: any;
	
	    static createFrom(source: any = {}) {
	        return new CheckOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.report = this.convertValues(source["report"], packs.Report);
	        this.progress = this.convertValues(source["progress"], packs.ExerciseProgress);
	        this.run = source["run"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CheckRequest {
	    path: string;
	    code: string;
	    lang: string;
	    runId?: string;
	
	    static createFrom(source: any = {}) {
	        return new CheckRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.code = source["code"];
	        this.lang = source["lang"];
	        this.runId = source["runId"];
	    }
	}
	export class CourseStep {
	    id: string;
	    title: text.Text;
	    lesson?: string;
	    solved: boolean;
	    stars: number;
	
	    static createFrom(source: any = {}) {
	        return new CourseStep(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = this.convertValues(source["title"], text.Text);
	        this.lesson = source["lesson"];
	        this.solved = source["solved"];
	        this.stars = source["stars"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CourseView {
	    name: string;
	    title: text.Text;
	    description: text.Text;
	    exercises: number;
	    folder?: string;
	    solved: number;
	    stars: number;
	    maxStars: number;
	    steps: CourseStep[];
	
	    static createFrom(source: any = {}) {
	        return new CourseView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = this.convertValues(source["title"], text.Text);
	        this.description = this.convertValues(source["description"], text.Text);
	        this.exercises = source["exercises"];
	        this.folder = source["folder"];
	        this.solved = source["solved"];
	        this.stars = source["stars"];
	        this.maxStars = source["maxStars"];
	        this.steps = this.convertValues(source["steps"], CourseStep);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CourseShelf {
	    courses: CourseView[];
	    offer: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CourseShelf(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.courses = this.convertValues(source["courses"], CourseView);
	        this.offer = source["offer"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Draft {
	    path: string;
	    content: string;
	    version: string;
	    convertToUtf8: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Draft(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.content = source["content"];
	        this.version = source["version"];
	        this.convertToUtf8 = source["convertToUtf8"];
	    }
	}
	export class ExerciseView {
	    packTitle: text.Text;
	    packFolder: string;
	    id: string;
	    title: text.Text;
	    instructions: string;
	    checks: number;
	    hintsTotal: number;
	    hints: packs.Hint[];
	    progress: packs.ExerciseProgress;
	    steps: CourseStep[];
	
	    static createFrom(source: any = {}) {
	        return new ExerciseView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.packTitle = this.convertValues(source["packTitle"], text.Text);
	        this.packFolder = source["packFolder"];
	        this.id = source["id"];
	        this.title = this.convertValues(source["title"], text.Text);
	        this.instructions = source["instructions"];
	        this.checks = source["checks"];
	        this.hintsTotal = source["hintsTotal"];
	        this.hints = this.convertValues(source["hints"], packs.Hint);
	        this.progress = this.convertValues(source["progress"], packs.ExerciseProgress);
	        this.steps = this.convertValues(source["steps"], CourseStep);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LessonsView {
	    root: string;
	    tree?: lessons.Node;
	    problem?: lessons.Problem;
	    open?: string;
	    positions?: {[key: string]: lessons.Position};
	
	    static createFrom(source: any = {}) {
	        return new LessonsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.tree = this.convertValues(source["tree"], lessons.Node);
	        this.problem = this.convertValues(source["problem"], lessons.Problem);
	        this.open = source["open"];
	        this.positions = this.convertValues(source["positions"], lessons.Position, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunRequest {
	    runId: string;
	    code: string;
	    name: string;
	    lang: string;
	    lesson?: string;
	    trace?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RunRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runId = source["runId"];
	        this.code = source["code"];
	        this.name = source["name"];
	        this.lang = source["lang"];
	        this.lesson = source["lesson"];
	        this.trace = source["trace"];
	    }
	}
	export class SandboxLimits {
	    wallSeconds: number;
	    idleSeconds: number;
	    cpuSeconds: number;
	    memoryBytes: number;
	    maxProcs: number;
	    fileSizeBytes: number;
	    scratchBytes: number;
	    scratchFiles: number;
	    outputBytes: number;
	    maxOpenFiles: number;
	    preloadedBytes: number;
	
	    static createFrom(source: any = {}) {
	        return new SandboxLimits(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.wallSeconds = source["wallSeconds"];
	        this.idleSeconds = source["idleSeconds"];
	        this.cpuSeconds = source["cpuSeconds"];
	        this.memoryBytes = source["memoryBytes"];
	        this.maxProcs = source["maxProcs"];
	        this.fileSizeBytes = source["fileSizeBytes"];
	        this.scratchBytes = source["scratchBytes"];
	        this.scratchFiles = source["scratchFiles"];
	        this.outputBytes = source["outputBytes"];
	        this.maxOpenFiles = source["maxOpenFiles"];
	        this.preloadedBytes = source["preloadedBytes"];
	    }
	}
	export class SandboxStatus {
	    ready: boolean;
	    checking: boolean;
	    code: string;
	    reason: string;
	    fix: string;
	    fixOthers?: sandbox.InstallCommand[];
	    python: string;
	    sandbox: string;
	    version: string;
	    containment: sandbox.Containment;
	    limits: SandboxLimits;
	    demoRunId?: string;
	
	    static createFrom(source: any = {}) {
	        return new SandboxStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ready = source["ready"];
	        this.checking = source["checking"];
	        this.code = source["code"];
	        this.reason = source["reason"];
	        this.fix = source["fix"];
	        this.fixOthers = this.convertValues(source["fixOthers"], sandbox.InstallCommand);
	        this.python = source["python"];
	        this.sandbox = source["sandbox"];
	        this.version = source["version"];
	        this.containment = this.convertValues(source["containment"], sandbox.Containment);
	        this.limits = this.convertValues(source["limits"], SandboxLimits);
	        this.demoRunId = source["demoRunId"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SaveRequest {
	    path: string;
	    content: string;
	    version: string;
	    convertToUtf8: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SaveRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.content = source["content"];
	        this.version = source["version"];
	        this.convertToUtf8 = source["convertToUtf8"];
	    }
	}

}

export namespace kidrun {
	
	export class Event {
	    type: string;
	    key?: string;
	    down?: boolean;
	    action?: string;
	    x?: number;
	    y?: number;
	    button?: number;
	    text?: string;
	    speed?: number;
	
	    static createFrom(source: any = {}) {
	        return new Event(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.key = source["key"];
	        this.down = source["down"];
	        this.action = source["action"];
	        this.x = source["x"];
	        this.y = source["y"];
	        this.button = source["button"];
	        this.text = source["text"];
	        this.speed = source["speed"];
	    }
	}

}

export namespace lessons {
	
	export class Deleted {
	    id: string;
	    paths: string[];
	    // Go type: time
	    when: any;
	
	    static createFrom(source: any = {}) {
	        return new Deleted(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.paths = source["paths"];
	        this.when = this.convertValues(source["when"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class KeptBoth {
	    path: string;
	    version: string;
	    encoding: string;
	    asidePath: string;
	
	    static createFrom(source: any = {}) {
	        return new KeptBoth(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.version = source["version"];
	        this.encoding = source["encoding"];
	        this.asidePath = source["asidePath"];
	    }
	}
	export class Problem {
	    code: string;
	    zh: string;
	    en: string;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.zh = source["zh"];
	        this.en = source["en"];
	    }
	}
	export class Lesson {
	    path: string;
	    name: string;
	    content: string;
	    version: string;
	    encoding: string;
	    needsConversion: boolean;
	    instructions?: string;
	    instructionsProblem?: Problem;
	    dataFiles?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Lesson(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.content = source["content"];
	        this.version = source["version"];
	        this.encoding = source["encoding"];
	        this.needsConversion = source["needsConversion"];
	        this.instructions = source["instructions"];
	        this.instructionsProblem = this.convertValues(source["instructionsProblem"], Problem);
	        this.dataFiles = source["dataFiles"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Node {
	    name: string;
	    path: string;
	    kind: string;
	    instructions?: boolean;
	    children?: Node[];
	    title?: text.Text;
	
	    static createFrom(source: any = {}) {
	        return new Node(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.kind = source["kind"];
	        this.instructions = source["instructions"];
	        this.children = this.convertValues(source["children"], Node);
	        this.title = this.convertValues(source["title"], text.Text);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Position {
	    scrollTop: number;
	    cursor: number;
	
	    static createFrom(source: any = {}) {
	        return new Position(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scrollTop = source["scrollTop"];
	        this.cursor = source["cursor"];
	    }
	}
	
	export class SaveResult {
	    path: string;
	    version: string;
	    encoding: string;
	
	    static createFrom(source: any = {}) {
	        return new SaveResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.version = source["version"];
	        this.encoding = source["encoding"];
	    }
	}

}

export namespace packs {
	
	export class CheckResult {
	    index: number;
	    type: string;
	    ok: boolean;
	    message?: string;
	    detail?: string;
	    not_run?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CheckResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.type = source["type"];
	        this.ok = source["ok"];
	        this.message = source["message"];
	        this.detail = source["detail"];
	        this.not_run = source["not_run"];
	    }
	}
	export class ExerciseProgress {
	    solved: boolean;
	    attempts: number;
	    stars: number;
	    hints_shown: number;
	    // Go type: time
	    last_attempt: any;
	    // Go type: time
	    solved_at: any;
	
	    static createFrom(source: any = {}) {
	        return new ExerciseProgress(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.solved = source["solved"];
	        this.attempts = source["attempts"];
	        this.stars = source["stars"];
	        this.hints_shown = source["hints_shown"];
	        this.last_attempt = this.convertValues(source["last_attempt"], null);
	        this.solved_at = this.convertValues(source["solved_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Hint {
	    index: number;
	    total: number;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new Hint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.total = source["total"];
	        this.text = source["text"];
	    }
	}
	export class PackSummary {
	    folder: string;
	    id: string;
	    version: string;
	    origin: string;
	    signer: string;
	    title: text.Text;
	    exercises: number;
	    solved: number;
	    attempts: number;
	    stars: number;
	    max_stars: number;
	    hints_shown: number;
	    // Go type: time
	    last_attempt: any;
	    progress: {[key: string]: ExerciseProgress};
	
	    static createFrom(source: any = {}) {
	        return new PackSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.folder = source["folder"];
	        this.id = source["id"];
	        this.version = source["version"];
	        this.origin = source["origin"];
	        this.signer = source["signer"];
	        this.title = this.convertValues(source["title"], text.Text);
	        this.exercises = source["exercises"];
	        this.solved = source["solved"];
	        this.attempts = source["attempts"];
	        this.stars = source["stars"];
	        this.max_stars = source["max_stars"];
	        this.hints_shown = source["hints_shown"];
	        this.last_attempt = this.convertValues(source["last_attempt"], null);
	        this.progress = this.convertValues(source["progress"], ExerciseProgress, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PlannedExercise {
	    id: string;
	    title: text.Text;
	    lesson: string;
	    new: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PlannedExercise(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = this.convertValues(source["title"], text.Text);
	        this.lesson = source["lesson"];
	        this.new = source["new"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Plan {
	    id: string;
	    version: string;
	    title: text.Text;
	    description: text.Text;
	    author: string;
	    origin: string;
	    signer: string;
	    folder: string;
	    previous: string;
	    exercises: PlannedExercise[];
	    writes: string[];
	    kept: string[];
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.version = source["version"];
	        this.title = this.convertValues(source["title"], text.Text);
	        this.description = this.convertValues(source["description"], text.Text);
	        this.author = source["author"];
	        this.origin = source["origin"];
	        this.signer = source["signer"];
	        this.folder = source["folder"];
	        this.previous = source["previous"];
	        this.exercises = this.convertValues(source["exercises"], PlannedExercise);
	        this.writes = source["writes"];
	        this.kept = source["kept"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Report {
	    exercise: string;
	    passed: boolean;
	    results: CheckResult[];
	    ended?: string;
	    note?: string;
	    budget_seconds: number;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.exercise = source["exercise"];
	        this.passed = source["passed"];
	        this.results = this.convertValues(source["results"], CheckResult);
	        this.ended = source["ended"];
	        this.note = source["note"];
	        this.budget_seconds = source["budget_seconds"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace sandbox {
	
	export class Containment {
	    mechanism: string;
	    bounds: string[];
	    detail: string;
	
	    static createFrom(source: any = {}) {
	        return new Containment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mechanism = source["mechanism"];
	        this.bounds = source["bounds"];
	        this.detail = source["detail"];
	    }
	}
	export class InstallCommand {
	    distro: string;
	    command: string;
	
	    static createFrom(source: any = {}) {
	        return new InstallCommand(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.distro = source["distro"];
	        this.command = source["command"];
	    }
	}

}

export namespace settings {
	
	export class Settings {
	    lang: string;
	    fontSize: number;
	    timeoutSeconds: number;
	    python: string;
	    lessonsDir?: string;
	    pace?: number;
	    coursesOffered?: boolean;
	    warning?: string;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lang = source["lang"];
	        this.fontSize = source["fontSize"];
	        this.timeoutSeconds = source["timeoutSeconds"];
	        this.python = source["python"];
	        this.lessonsDir = source["lessonsDir"];
	        this.pace = source["pace"];
	        this.coursesOffered = source["coursesOffered"];
	        this.warning = source["warning"];
	    }
	}

}

export namespace text {
	
	export class Text {
	    zh: string;
	    en: string;
	
	    static createFrom(source: any = {}) {
	        return new Text(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.zh = source["zh"];
	        this.en = source["en"];
	    }
	}

}

