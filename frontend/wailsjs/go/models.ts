export namespace analyze {
	
	export class Mark {
	    start: number;
	    end: number;
	
	    static createFrom(source: any = {}) {
	        return new Mark(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.start = source["start"];
	        this.end = source["end"];
	    }
	}

}

export namespace app {
	
	export class DocumentIdentity {
	    title: string;
	    organisation: string;
	    doc_type: string;
	    period: string;
	
	    static createFrom(source: any = {}) {
	        return new DocumentIdentity(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.organisation = source["organisation"];
	        this.doc_type = source["doc_type"];
	        this.period = source["period"];
	    }
	}
	export class EntityDetail {
	    entity: kb.Entity;
	    relations: kb.Relation[];
	
	    static createFrom(source: any = {}) {
	        return new EntityDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entity = this.convertValues(source["entity"], kb.Entity);
	        this.relations = this.convertValues(source["relations"], kb.Relation);
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
	export class ImportDone {
	    results: project.ImportResult[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportDone(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.results = this.convertValues(source["results"], project.ImportResult);
	        this.error = source["error"];
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
	export class ImportStatus {
	    running: boolean;
	    files: string[];
	    last?: project.Progress;
	    done?: ImportDone;
	
	    static createFrom(source: any = {}) {
	        return new ImportStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.files = source["files"];
	        this.last = this.convertValues(source["last"], project.Progress);
	        this.done = this.convertValues(source["done"], ImportDone);
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
	export class IndexDone {
	    error?: string;
	    seconds: number;
	    warning?: string;
	
	    static createFrom(source: any = {}) {
	        return new IndexDone(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.error = source["error"];
	        this.seconds = source["seconds"];
	        this.warning = source["warning"];
	    }
	}
	export class IndexState {
	    running: boolean;
	    last?: project.IndexProgress;
	    done?: IndexDone;
	
	    static createFrom(source: any = {}) {
	        return new IndexState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.last = this.convertValues(source["last"], project.IndexProgress);
	        this.done = this.convertValues(source["done"], IndexDone);
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
	export class MCPConfig {
	    name: string;
	    command: string;
	    args: string[];
	    project: string;
	    snippet: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.project = source["project"];
	        this.snippet = source["snippet"];
	    }
	}
	export class Marked {
	    marks: analyze.Mark[];
	
	    static createFrom(source: any = {}) {
	        return new Marked(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.marks = this.convertValues(source["marks"], analyze.Mark);
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
	export class ModelsInfo {
	    status: llm.Status;
	    models: llm.ModelInfo[];
	    recommended: Record<string, Array<string>>;
	    pulling?: string;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelsInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = this.convertValues(source["status"], llm.Status);
	        this.models = this.convertValues(source["models"], llm.ModelInfo);
	        this.recommended = source["recommended"];
	        this.pulling = source["pulling"];
	        this.error = source["error"];
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
	export class ProjectEntry {
	    name: string;
	    dir: string;
	    open: boolean;
	    documents: number;
	    // Go type: time
	    modified?: any;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProjectEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.dir = source["dir"];
	        this.open = source["open"];
	        this.documents = source["documents"];
	        this.modified = this.convertValues(source["modified"], null);
	        this.error = source["error"];
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
	export class ProjectList {
	    root: string;
	    managed: boolean;
	    projects: ProjectEntry[];
	
	    static createFrom(source: any = {}) {
	        return new ProjectList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.managed = source["managed"];
	        this.projects = this.convertValues(source["projects"], ProjectEntry);
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
	export class SearchResult {
	    hits: kb.Hit[];
	    info: project.SearchInfo;
	
	    static createFrom(source: any = {}) {
	        return new SearchResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hits = this.convertValues(source["hits"], kb.Hit);
	        this.info = this.convertValues(source["info"], project.SearchInfo);
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
	export class Settings {
	    ollama_host: string;
	    offline: boolean;
	    chat_model: string;
	    embed_model: string;
	    context_size: number;
	    answer_mode: string;
	    last_project?: string;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ollama_host = source["ollama_host"];
	        this.offline = source["offline"];
	        this.chat_model = source["chat_model"];
	        this.embed_model = source["embed_model"];
	        this.context_size = source["context_size"];
	        this.answer_mode = source["answer_mode"];
	        this.last_project = source["last_project"];
	    }
	}

}

export namespace graph {
	
	export class DocCount {
	    doc: number;
	    n: number;
	
	    static createFrom(source: any = {}) {
	        return new DocCount(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.doc = source["doc"];
	        this.n = source["n"];
	    }
	}
	export class Scope {
	    docs: number[];
	    types: string[];
	
	    static createFrom(source: any = {}) {
	        return new Scope(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.docs = source["docs"];
	        this.types = source["types"];
	    }
	}
	export class SearchHit {
	    id: number;
	    name: string;
	    type: string;
	    rank: number;
	    mentions: number;
	    group: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.rank = source["rank"];
	        this.mentions = source["mentions"];
	        this.group = source["group"];
	    }
	}
	export class TypeCount {
	    type: string;
	    n: number;
	
	    static createFrom(source: any = {}) {
	        return new TypeCount(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.n = source["n"];
	    }
	}
	export class ViewGroup {
	    id: number;
	    name: string;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new ViewGroup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.size = source["size"];
	    }
	}
	export class ViewNode {
	    id: number;
	    rank: number;
	    score: number;
	    group: number;
	    mentions: number;
	    degree: number;
	
	    static createFrom(source: any = {}) {
	        return new ViewNode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.rank = source["rank"];
	        this.score = source["score"];
	        this.group = source["group"];
	        this.mentions = source["mentions"];
	        this.degree = source["degree"];
	    }
	}
	export class View {
	    entities: kb.Entity[];
	    relations: kb.Relation[];
	    nodes: ViewNode[];
	    groups: ViewGroup[];
	    types: TypeCount[];
	    docs: DocCount[];
	    total: number;
	    total_relations: number;
	    stated: number;
	
	    static createFrom(source: any = {}) {
	        return new View(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entities = this.convertValues(source["entities"], kb.Entity);
	        this.relations = this.convertValues(source["relations"], kb.Relation);
	        this.nodes = this.convertValues(source["nodes"], ViewNode);
	        this.groups = this.convertValues(source["groups"], ViewGroup);
	        this.types = this.convertValues(source["types"], TypeCount);
	        this.docs = this.convertValues(source["docs"], DocCount);
	        this.total = source["total"];
	        this.total_relations = source["total_relations"];
	        this.stated = source["stated"];
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

export namespace kb {
	
	export class TableCell {
	    n: number;
	    row: string;
	    section?: string;
	    column?: string;
	    unit?: string;
	    value: string;
	    number: number;
	    year?: number;
	    via?: string;
	    rank?: string;
	
	    static createFrom(source: any = {}) {
	        return new TableCell(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.n = source["n"];
	        this.row = source["row"];
	        this.section = source["section"];
	        this.column = source["column"];
	        this.unit = source["unit"];
	        this.value = source["value"];
	        this.number = source["number"];
	        this.year = source["year"];
	        this.via = source["via"];
	        this.rank = source["rank"];
	    }
	}
	export class Scope {
	    docs?: number[];
	    titles?: string[];
	    routed?: boolean;
	    because?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Scope(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.docs = source["docs"];
	        this.titles = source["titles"];
	        this.routed = source["routed"];
	        this.because = source["because"];
	    }
	}
	export class ShortAnswer {
	    text: string;
	    n: number;
	    support: number[];
	    kind: string;
	    score: number;
	
	    static createFrom(source: any = {}) {
	        return new ShortAnswer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.n = source["n"];
	        this.support = source["support"];
	        this.kind = source["kind"];
	        this.score = source["score"];
	    }
	}
	export class Source {
	    doc_id: number;
	    chunk_id: number;
	    page_start: number;
	    page_end: number;
	    char_start: number;
	    char_end: number;
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.doc_id = source["doc_id"];
	        this.chunk_id = source["chunk_id"];
	        this.page_start = source["page_start"];
	        this.page_end = source["page_end"];
	        this.char_start = source["char_start"];
	        this.char_end = source["char_end"];
	    }
	}
	export class PathEdge {
	    from: string;
	    to: string;
	    predicate: string;
	    relation?: number;
	    source: Source;
	    sentence?: string;
	
	    static createFrom(source: any = {}) {
	        return new PathEdge(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.predicate = source["predicate"];
	        this.relation = source["relation"];
	        this.source = this.convertValues(source["source"], Source);
	        this.sentence = source["sentence"];
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
	export class Path {
	    score: number;
	    semantic?: number;
	    structural?: number;
	    chosen?: boolean;
	    kind?: string;
	    nodes: string[];
	    edges: PathEdge[];
	
	    static createFrom(source: any = {}) {
	        return new Path(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.score = source["score"];
	        this.semantic = source["semantic"];
	        this.structural = source["structural"];
	        this.chosen = source["chosen"];
	        this.kind = source["kind"];
	        this.nodes = source["nodes"];
	        this.edges = this.convertValues(source["edges"], PathEdge);
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
	export class Citation {
	    n: number;
	    doc_id: number;
	    chunk_id: number;
	    page_start: number;
	    page_end: number;
	    char_start: number;
	    char_end: number;
	    doc_title?: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new Citation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.n = source["n"];
	        this.doc_id = source["doc_id"];
	        this.chunk_id = source["chunk_id"];
	        this.page_start = source["page_start"];
	        this.page_end = source["page_end"];
	        this.char_start = source["char_start"];
	        this.char_end = source["char_end"];
	        this.doc_title = source["doc_title"];
	        this.text = source["text"];
	    }
	}
	export class Answer {
	    id?: number;
	    question: string;
	    answer: string;
	    declined: boolean;
	    outcome: string;
	    cut?: string;
	    mode: string;
	    citations: Citation[];
	    paths: Path[];
	    trace: number[];
	    asked_at?: string;
	    short?: ShortAnswer;
	    scope?: Scope;
	    cells?: TableCell[];
	    formula?: string;
	
	    static createFrom(source: any = {}) {
	        return new Answer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.question = source["question"];
	        this.answer = source["answer"];
	        this.declined = source["declined"];
	        this.outcome = source["outcome"];
	        this.cut = source["cut"];
	        this.mode = source["mode"];
	        this.citations = this.convertValues(source["citations"], Citation);
	        this.paths = this.convertValues(source["paths"], Path);
	        this.trace = source["trace"];
	        this.asked_at = source["asked_at"];
	        this.short = this.convertValues(source["short"], ShortAnswer);
	        this.scope = this.convertValues(source["scope"], Scope);
	        this.cells = this.convertValues(source["cells"], TableCell);
	        this.formula = source["formula"];
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
	
	export class Document {
	    id: number;
	    title: string;
	    file_name: string;
	    stored_path: string;
	    kind: string;
	    hash: string;
	    bytes: number;
	    status: string;
	    error?: string;
	    error_code?: string;
	    warnings?: string[];
	    pages: number;
	    chunks: number;
	    // Go type: time
	    imported_at: any;
	    organisation?: string;
	    doc_type?: string;
	    period?: string;
	    identity_edited?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Document(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.file_name = source["file_name"];
	        this.stored_path = source["stored_path"];
	        this.kind = source["kind"];
	        this.hash = source["hash"];
	        this.bytes = source["bytes"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.error_code = source["error_code"];
	        this.warnings = source["warnings"];
	        this.pages = source["pages"];
	        this.chunks = source["chunks"];
	        this.imported_at = this.convertValues(source["imported_at"], null);
	        this.organisation = source["organisation"];
	        this.doc_type = source["doc_type"];
	        this.period = source["period"];
	        this.identity_edited = source["identity_edited"];
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
	export class EmbedderInfo {
	    model: string;
	    dim: number;
	
	    static createFrom(source: any = {}) {
	        return new EmbedderInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.dim = source["dim"];
	    }
	}
	export class Value {
	    kind: string;
	    text: string;
	    source: Source;
	
	    static createFrom(source: any = {}) {
	        return new Value(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.text = source["text"];
	        this.source = this.convertValues(source["source"], Source);
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
	export class Entity {
	    id: number;
	    name: string;
	    type: string;
	    semantic_type?: string;
	    description?: string;
	    aliases: string[];
	    mentions: Source[];
	    values?: Value[];
	
	    static createFrom(source: any = {}) {
	        return new Entity(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.semantic_type = source["semantic_type"];
	        this.description = source["description"];
	        this.aliases = source["aliases"];
	        this.mentions = this.convertValues(source["mentions"], Source);
	        this.values = this.convertValues(source["values"], Value);
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
	export class Relation {
	    id: number;
	    subject: number;
	    predicate: string;
	    object: number;
	    subject_name?: string;
	    object_name?: string;
	    statement: string;
	    confidence: number;
	    sources: Source[];
	
	    static createFrom(source: any = {}) {
	        return new Relation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.subject = source["subject"];
	        this.predicate = source["predicate"];
	        this.object = source["object"];
	        this.subject_name = source["subject_name"];
	        this.object_name = source["object_name"];
	        this.statement = source["statement"];
	        this.confidence = source["confidence"];
	        this.sources = this.convertValues(source["sources"], Source);
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
	export class Graph {
	    entities: Entity[];
	    relations: Relation[];
	
	    static createFrom(source: any = {}) {
	        return new Graph(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entities = this.convertValues(source["entities"], Entity);
	        this.relations = this.convertValues(source["relations"], Relation);
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
	export class Hit {
	    id: number;
	    doc_id: number;
	    ordinal: number;
	    page_start: number;
	    page_end: number;
	    char_start: number;
	    char_end: number;
	    heading_path?: string[];
	    table_header?: string;
	    text: string;
	    tokens: number;
	    doc_title: string;
	    score: number;
	    ranks?: Record<string, number>;
	    snippet?: string;
	    extra?: Record<string, number>;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.doc_id = source["doc_id"];
	        this.ordinal = source["ordinal"];
	        this.page_start = source["page_start"];
	        this.page_end = source["page_end"];
	        this.char_start = source["char_start"];
	        this.char_end = source["char_end"];
	        this.heading_path = source["heading_path"];
	        this.table_header = source["table_header"];
	        this.text = source["text"];
	        this.tokens = source["tokens"];
	        this.doc_title = source["doc_title"];
	        this.score = source["score"];
	        this.ranks = source["ranks"];
	        this.snippet = source["snippet"];
	        this.extra = source["extra"];
	    }
	}
	export class Supernode {
	    id: number;
	    label: string;
	    kind: string;
	    members: number[];
	    doc_ids: number[];
	
	    static createFrom(source: any = {}) {
	        return new Supernode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.label = source["label"];
	        this.kind = source["kind"];
	        this.members = source["members"];
	        this.doc_ids = source["doc_ids"];
	    }
	}
	export class MindNode {
	    id: number;
	    parent: number;
	    kind: string;
	    label: string;
	    doc_id: number;
	    supernode?: number;
	    chunk_id?: number;
	    page_start?: number;
	    page_end?: number;
	    char_start?: number;
	    char_end?: number;
	
	    static createFrom(source: any = {}) {
	        return new MindNode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.parent = source["parent"];
	        this.kind = source["kind"];
	        this.label = source["label"];
	        this.doc_id = source["doc_id"];
	        this.supernode = source["supernode"];
	        this.chunk_id = source["chunk_id"];
	        this.page_start = source["page_start"];
	        this.page_end = source["page_end"];
	        this.char_start = source["char_start"];
	        this.char_end = source["char_end"];
	    }
	}
	export class MindMap {
	    nodes: MindNode[];
	    supernodes: Supernode[];
	
	    static createFrom(source: any = {}) {
	        return new MindMap(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.nodes = this.convertValues(source["nodes"], MindNode);
	        this.supernodes = this.convertValues(source["supernodes"], Supernode);
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
	
	export class PageBlock {
	    kind: string;
	    level?: number;
	    start: number;
	    end: number;
	    box?: number[];
	    header?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PageBlock(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.level = source["level"];
	        this.start = source["start"];
	        this.end = source["end"];
	        this.box = source["box"];
	        this.header = source["header"];
	    }
	}
	export class Page {
	    doc_id: number;
	    number: number;
	    char_start: number;
	    text: string;
	    no_text?: boolean;
	    ocr?: boolean;
	    ocr_status?: string;
	    ocr_note?: string;
	    label?: string;
	    furniture?: string[];
	    width?: number;
	    height?: number;
	    blocks?: PageBlock[];
	
	    static createFrom(source: any = {}) {
	        return new Page(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.doc_id = source["doc_id"];
	        this.number = source["number"];
	        this.char_start = source["char_start"];
	        this.text = source["text"];
	        this.no_text = source["no_text"];
	        this.ocr = source["ocr"];
	        this.ocr_status = source["ocr_status"];
	        this.ocr_note = source["ocr_note"];
	        this.label = source["label"];
	        this.furniture = source["furniture"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.blocks = this.convertValues(source["blocks"], PageBlock);
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

export namespace llm {
	
	export class ModelInfo {
	    name: string;
	    family?: string;
	    parameter_size?: string;
	    quantization?: string;
	    size_bytes?: number;
	    context_length?: number;
	    embedding_length?: number;
	    capabilities?: string[];
	    thinking?: boolean;
	    embedding?: boolean;
	    // Go type: time
	    modified_at: any;
	
	    static createFrom(source: any = {}) {
	        return new ModelInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.family = source["family"];
	        this.parameter_size = source["parameter_size"];
	        this.quantization = source["quantization"];
	        this.size_bytes = source["size_bytes"];
	        this.context_length = source["context_length"];
	        this.embedding_length = source["embedding_length"];
	        this.capabilities = source["capabilities"];
	        this.thinking = source["thinking"];
	        this.embedding = source["embedding"];
	        this.modified_at = this.convertValues(source["modified_at"], null);
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
	export class Status {
	    mode: string;
	    host: string;
	    version?: string;
	    chat_model?: string;
	    embed_model?: string;
	    reason?: string;
	    notes?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.host = source["host"];
	        this.version = source["version"];
	        this.chat_model = source["chat_model"];
	        this.embed_model = source["embed_model"];
	        this.reason = source["reason"];
	        this.notes = source["notes"];
	    }
	}
	export class Usage {
	    calls: number;
	    prompt_tokens: number;
	    completion_tokens: number;
	    wall_ns: number;
	    retries?: number;
	    repairs?: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.calls = source["calls"];
	        this.prompt_tokens = source["prompt_tokens"];
	        this.completion_tokens = source["completion_tokens"];
	        this.wall_ns = source["wall_ns"];
	        this.retries = source["retries"];
	        this.repairs = source["repairs"];
	    }
	}

}

export namespace project {
	
	export class EmbedderStatus {
	    current: kb.EmbedderInfo;
	    pending: kb.EmbedderInfo;
	    done: number;
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new EmbedderStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.current = this.convertValues(source["current"], kb.EmbedderInfo);
	        this.pending = this.convertValues(source["pending"], kb.EmbedderInfo);
	        this.done = source["done"];
	        this.total = source["total"];
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
	export class ImportResult {
	    file: string;
	    doc_id: number;
	    status: string;
	    pages: number;
	    chunks: number;
	    error: string;
	    error_code?: string;
	    warnings?: string[];
	    ocr_pages?: number;
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.doc_id = source["doc_id"];
	        this.status = source["status"];
	        this.pages = source["pages"];
	        this.chunks = source["chunks"];
	        this.error = source["error"];
	        this.error_code = source["error_code"];
	        this.warnings = source["warnings"];
	        this.ocr_pages = source["ocr_pages"];
	    }
	}
	export class IndexProgress {
	    stage: string;
	    doc_id?: number;
	    done: number;
	    total: number;
	    eta_ns?: number;
	    note?: string;
	    warning?: string;
	    usage?: llm.Usage;
	
	    static createFrom(source: any = {}) {
	        return new IndexProgress(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.stage = source["stage"];
	        this.doc_id = source["doc_id"];
	        this.done = source["done"];
	        this.total = source["total"];
	        this.eta_ns = source["eta_ns"];
	        this.note = source["note"];
	        this.warning = source["warning"];
	        this.usage = this.convertValues(source["usage"], llm.Usage);
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
	export class Info {
	    name: string;
	    dir: string;
	    documents: number;
	    chunks: number;
	    embedder: kb.EmbedderInfo;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.dir = source["dir"];
	        this.documents = source["documents"];
	        this.chunks = source["chunks"];
	        this.embedder = this.convertValues(source["embedder"], kb.EmbedderInfo);
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
	export class Progress {
	    file: string;
	    index: number;
	    total: number;
	    stage: string;
	    result?: ImportResult;
	
	    static createFrom(source: any = {}) {
	        return new Progress(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.index = source["index"];
	        this.total = source["total"];
	        this.stage = source["stage"];
	        this.result = this.convertValues(source["result"], ImportResult);
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
	export class SearchInfo {
	    embedder: string;
	    vectors: boolean;
	    note?: string;
	    scope?: kb.Scope;
	    respelled?: question.Respelling[];
	
	    static createFrom(source: any = {}) {
	        return new SearchInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.embedder = source["embedder"];
	        this.vectors = source["vectors"];
	        this.note = source["note"];
	        this.scope = this.convertValues(source["scope"], kb.Scope);
	        this.respelled = this.convertValues(source["respelled"], question.Respelling);
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

export namespace question {
	
	export class Respelling {
	    word: string;
	    as: string;
	
	    static createFrom(source: any = {}) {
	        return new Respelling(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.word = source["word"];
	        this.as = source["as"];
	    }
	}

}

export namespace reason {
	
	export class Chain {
	    predicates: string[];
	
	    static createFrom(source: any = {}) {
	        return new Chain(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.predicates = source["predicates"];
	    }
	}
	export class FormulaTrace {
	    target: string;
	    found?: string[];
	    missing?: string;
	
	    static createFrom(source: any = {}) {
	        return new FormulaTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.target = source["target"];
	        this.found = source["found"];
	        this.missing = source["missing"];
	    }
	}
	export class PathCounts {
	    question: number;
	    answer: number;
	    dropped: number;
	
	    static createFrom(source: any = {}) {
	        return new PathCounts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.question = source["question"];
	        this.answer = source["answer"];
	        this.dropped = source["dropped"];
	    }
	}
	export class PlanStep {
	    id: number;
	    op: string;
	    subject?: string;
	    predicate?: string;
	    object?: string;
	    question?: string;
	    inputs?: number[];
	    expr?: string;
	    direction?: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new PlanStep(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.op = source["op"];
	        this.subject = source["subject"];
	        this.predicate = source["predicate"];
	        this.object = source["object"];
	        this.question = source["question"];
	        this.inputs = source["inputs"];
	        this.expr = source["expr"];
	        this.direction = source["direction"];
	        this.limit = source["limit"];
	    }
	}
	export class Plan {
	    steps: PlanStep[];
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.steps = this.convertValues(source["steps"], PlanStep);
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
	
	export class ReadAs {
	    name: string;
	    as: string;
	
	    static createFrom(source: any = {}) {
	        return new ReadAs(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.as = source["as"];
	    }
	}
	export class RerankTrace {
	    thought: string;
	    relations: number[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new RerankTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.thought = source["thought"];
	        this.relations = source["relations"];
	        this.error = source["error"];
	    }
	}
	export class RetrievalTrace {
	    lists: retrieve.List[];
	    linked: retrieve.Linked[];
	    evidence: number[];
	    candidates?: number[];
	    timings_ms: Record<string, number>;
	
	    static createFrom(source: any = {}) {
	        return new RetrievalTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lists = this.convertValues(source["lists"], retrieve.List);
	        this.linked = this.convertValues(source["linked"], retrieve.Linked);
	        this.evidence = source["evidence"];
	        this.candidates = source["candidates"];
	        this.timings_ms = source["timings_ms"];
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
	export class StepTrace {
	    id: number;
	    op: string;
	    query?: string;
	    by: string;
	    values: string[];
	    evidence?: number[];
	    note?: string;
	    ms: number;
	
	    static createFrom(source: any = {}) {
	        return new StepTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.op = source["op"];
	        this.query = source["query"];
	        this.by = source["by"];
	        this.values = source["values"];
	        this.evidence = source["evidence"];
	        this.note = source["note"];
	        this.ms = source["ms"];
	    }
	}
	export class RoundTrace {
	    question: string;
	    steps: StepTrace[];
	    answered: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RoundTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.question = source["question"];
	        this.steps = this.convertValues(source["steps"], StepTrace);
	        this.answered = source["answered"];
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
	export class ShortTrace {
	    text: string;
	    type: string;
	    score: number;
	
	    static createFrom(source: any = {}) {
	        return new ShortTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.type = source["type"];
	        this.score = source["score"];
	    }
	}
	
	export class SupportTrace {
	    coverage: number;
	    joint: number;
	    threshold: number;
	    declined: boolean;
	    decided?: boolean;
	    table?: boolean;
	    long_form?: boolean;
	    section_title?: boolean;
	    parts?: boolean;
	    keyed?: boolean;
	    filtered?: boolean;
	    distinct?: boolean;
	    list?: boolean;
	    subsections?: boolean;
	    operands?: string[];
	    unmentioned?: string[];
	
	    static createFrom(source: any = {}) {
	        return new SupportTrace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.coverage = source["coverage"];
	        this.joint = source["joint"];
	        this.threshold = source["threshold"];
	        this.declined = source["declined"];
	        this.decided = source["decided"];
	        this.table = source["table"];
	        this.long_form = source["long_form"];
	        this.section_title = source["section_title"];
	        this.parts = source["parts"];
	        this.keyed = source["keyed"];
	        this.filtered = source["filtered"];
	        this.distinct = source["distinct"];
	        this.list = source["list"];
	        this.subsections = source["subsections"];
	        this.operands = source["operands"];
	        this.unmentioned = source["unmentioned"];
	    }
	}
	export class Trace {
	    mode: string;
	    scope?: kb.Scope;
	    offline: boolean;
	    fallback?: string;
	    paths_dropped?: number;
	    paths_touch?: PathCounts;
	    answer_by: string;
	    unowned?: string[];
	    outcome: string;
	    answer_fallback?: string;
	    answer_cut?: string;
	    answer_continued?: number;
	    citations_by?: string;
	    formula?: FormulaTrace;
	    read_as?: ReadAs[];
	    short?: kb.ShortAnswer;
	    short_candidates?: ShortTrace[];
	    language?: string;
	    no_short?: string;
	    respelled?: question.Respelling[];
	    long_form?: string;
	    section_titles?: string[];
	    parts?: string[];
	    keyed_cells?: string[];
	    filtered_rows?: string[];
	    distinct_values?: string[];
	    list_items?: string[];
	    subsections?: string[];
	    subsections_of?: string;
	    retrieval: RetrievalTrace;
	    rerank?: RerankTrace;
	    semantic_chains?: Chain[];
	    support: SupportTrace;
	    plan?: Plan;
	    rounds?: RoundTrace[];
	    subgraph: kb.Graph;
	    timings_ms: Record<string, number>;
	    usage: llm.Usage;
	    usage_by_task?: Record<string, llm.Usage>;
	    errors?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Trace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.scope = this.convertValues(source["scope"], kb.Scope);
	        this.offline = source["offline"];
	        this.fallback = source["fallback"];
	        this.paths_dropped = source["paths_dropped"];
	        this.paths_touch = this.convertValues(source["paths_touch"], PathCounts);
	        this.answer_by = source["answer_by"];
	        this.unowned = source["unowned"];
	        this.outcome = source["outcome"];
	        this.answer_fallback = source["answer_fallback"];
	        this.answer_cut = source["answer_cut"];
	        this.answer_continued = source["answer_continued"];
	        this.citations_by = source["citations_by"];
	        this.formula = this.convertValues(source["formula"], FormulaTrace);
	        this.read_as = this.convertValues(source["read_as"], ReadAs);
	        this.short = this.convertValues(source["short"], kb.ShortAnswer);
	        this.short_candidates = this.convertValues(source["short_candidates"], ShortTrace);
	        this.language = source["language"];
	        this.no_short = source["no_short"];
	        this.respelled = this.convertValues(source["respelled"], question.Respelling);
	        this.long_form = source["long_form"];
	        this.section_titles = source["section_titles"];
	        this.parts = source["parts"];
	        this.keyed_cells = source["keyed_cells"];
	        this.filtered_rows = source["filtered_rows"];
	        this.distinct_values = source["distinct_values"];
	        this.list_items = source["list_items"];
	        this.subsections = source["subsections"];
	        this.subsections_of = source["subsections_of"];
	        this.retrieval = this.convertValues(source["retrieval"], RetrievalTrace);
	        this.rerank = this.convertValues(source["rerank"], RerankTrace);
	        this.semantic_chains = this.convertValues(source["semantic_chains"], Chain);
	        this.support = this.convertValues(source["support"], SupportTrace);
	        this.plan = this.convertValues(source["plan"], Plan);
	        this.rounds = this.convertValues(source["rounds"], RoundTrace);
	        this.subgraph = this.convertValues(source["subgraph"], kb.Graph);
	        this.timings_ms = source["timings_ms"];
	        this.usage = this.convertValues(source["usage"], llm.Usage);
	        this.usage_by_task = this.convertValues(source["usage_by_task"], llm.Usage, true);
	        this.errors = source["errors"];
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

export namespace retrieve {
	
	export class Linked {
	    entity: number;
	    name: string;
	    span: string;
	    by: string;
	    score: number;
	    chunks: number;
	
	    static createFrom(source: any = {}) {
	        return new Linked(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entity = source["entity"];
	        this.name = source["name"];
	        this.span = source["span"];
	        this.by = source["by"];
	        this.score = source["score"];
	        this.chunks = source["chunks"];
	    }
	}
	export class List {
	    name: string;
	    weight: number;
	    ids: number[];
	
	    static createFrom(source: any = {}) {
	        return new List(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.weight = source["weight"];
	        this.ids = source["ids"];
	    }
	}

}

