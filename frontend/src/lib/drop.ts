// Files dropped on the page (serve mode): every file of the drop with its
// path relative to the drop, so a dropped folder keeps its folders when it
// is uploaded. Folders are walked through the File System entries API
// (webkitGetAsEntry), which every current browser has.

export interface Dropped {
  file: File;
  /** "report.pdf", or "folder/sub/report.pdf" for a file inside a dropped folder. */
  name: string;
}

/** The part of FileSystemEntry used here (tests pass plain objects). */
export interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void, fail?: (e: unknown) => void) => void;
  createReader?: () => { readEntries: (ok: (es: EntryLike[]) => void, fail?: (e: unknown) => void) => void };
}

/** Most files taken from one drop (the server caps them too). */
export const MAX_DROPPED = 5000;

/** Walks entries depth first; prefix is the path of their folder. */
export async function walkEntries(entries: EntryLike[], prefix = "", out: Dropped[] = []): Promise<Dropped[]> {
  for (const e of entries) {
    if (out.length >= MAX_DROPPED) break;
    const name = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isFile && e.file) {
      const f = await new Promise<File>((ok, fail) => e.file!(ok, fail));
      out.push({ file: f, name });
    } else if (e.isDirectory && e.createReader) {
      const reader = e.createReader();
      // readEntries returns a folder in batches until an empty one.
      for (;;) {
        const batch = await new Promise<EntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
        if (batch.length === 0) break;
        await walkEntries(batch, name, out);
      }
    }
  }
  return out;
}

/** Every file in a drop, folders walked. */
export async function droppedFiles(dt: DataTransfer): Promise<Dropped[]> {
  const entries: EntryLike[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind !== "file") continue;
    const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => EntryLike | null }).webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(dt.files ?? []));
  const out = await walkEntries(entries);
  for (const f of loose) out.push({ file: f, name: f.name });
  return out;
}
