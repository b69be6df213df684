// Saving what the app exports (a document's Markdown, a mind map): the
// desktop asks where with its native save dialog (App.SaveTextFile), the
// browser downloads the file.
import { api, canPickFiles } from "../api";

/** Offers blob as a download named name (the browser's way of saving). */
export function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}


/** Saves text as the file name: on the desktop where the user picks (the
 * path written, "" when cancelled), in the browser as a download (name). */
export async function saveText(name: string, text: string, type: string): Promise<string> {
  if (canPickFiles) return api.saveTextFile(name, text);
  download(name, new Blob([text], { type }));
  return name;
}
