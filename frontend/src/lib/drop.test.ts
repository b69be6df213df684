import { describe, expect, it } from "vitest";
import { walkEntries, type EntryLike } from "./drop";

const file = (name: string): EntryLike => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok) => ok(new File([name], name)),
});
// A folder whose reader hands out its entries in batches of two, then [].
const dir = (name: string, children: EntryLike[]): EntryLike => ({
  isFile: false,
  isDirectory: true,
  name,
  createReader: () => {
    let i = 0;
    return {
      readEntries: (ok) => {
        const b = children.slice(i, i + 2);
        i += 2;
        ok(b);
      },
    };
  },
});

describe("walkEntries", () => {
  it("keeps folder paths and reads every batch", async () => {
    const got = await walkEntries([file("a.pdf"), dir("notes", [file("1.md"), file("2.md"), file("3.md"), dir("deep", [file("x.docx")])])]);
    expect(got.map((d) => d.name)).toEqual(["a.pdf", "notes/1.md", "notes/2.md", "notes/3.md", "notes/deep/x.docx"]);
    expect(await got[4].file.text()).toBe("x.docx");
  });
  it("an empty folder gives nothing", async () => {
    expect(await walkEntries([dir("empty", [])])).toEqual([]);
  });
  it("a file that cannot be read rejects", async () => {
    const bad: EntryLike = { isFile: true, isDirectory: false, name: "gone.pdf", file: (_ok, fail) => fail?.(new Error("NotFoundError")) };
    await expect(walkEntries([bad])).rejects.toThrow("NotFoundError");
  });
});
