export namespace app {
	
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

}

export namespace kb {
	
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
	export class Hit {
	    id: number;
	    doc_id: number;
	    ordinal: number;
	    page_start: number;
	    page_end: number;
	    char_start: number;
	    char_end: number;
	    heading_path?: string[];
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
	        this.text = source["text"];
	        this.tokens = source["tokens"];
	        this.doc_title = source["doc_title"];
	        this.score = source["score"];
	        this.ranks = source["ranks"];
	        this.snippet = source["snippet"];
	        this.extra = source["extra"];
	    }
	}
	export class Page {
	    doc_id: number;
	    number: number;
	    char_start: number;
	    text: string;
	    no_text?: boolean;
	    ocr?: boolean;
	
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
	    }
	}

}

export namespace project {
	
	export class ImportResult {
	    file: string;
	    doc_id: number;
	    status: string;
	    pages: number;
	    chunks: number;
	    error: string;
	    error_code?: string;
	    warnings?: string[];
	
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

}

