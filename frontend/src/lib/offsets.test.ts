import { describe, expect, it } from "vitest";
import { byteToIndex, locateSpan, pageStarts, utf8Length } from "./offsets";

const enc = new TextEncoder();

describe("utf8Length", () => {
  it("matches TextEncoder on mixed scripts", () => {
    for (const s of ["", "abc", "é", "民法典", "a😀b", "Steuererklärung – §3 民法", "\f"]) {
      expect(utf8Length(s)).toBe(enc.encode(s).length);
    }
  });
});

describe("byteToIndex", () => {
  it("maps every character boundary exactly", () => {
    const s = "aé民😀z";
    let b = 0;
    for (let i = 0; i <= s.length; ) {
      expect(byteToIndex(s, b)).toBe(i);
      if (i === s.length) break;
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      b += enc.encode(ch).length;
      i += ch.length;
    }
  });
  it("snaps offsets inside a character to its start", () => {
    const s = "a民b"; // 民 is bytes 1..3
    expect(byteToIndex(s, 2)).toBe(1);
    expect(byteToIndex(s, 3)).toBe(1);
    expect(byteToIndex(s, 4)).toBe(2);
  });
  it("clamps out-of-range offsets", () => {
    expect(byteToIndex("abc", -5)).toBe(0);
    expect(byteToIndex("abc", 99)).toBe(3);
  });
});

describe("pageStarts", () => {
  it("recomputes starts when the pages carry none", () => {
    const pages = [
      { number: 1, char_start: 0, text: "民法" },
      { number: 2, char_start: 0, text: "ab" },
    ];
    expect(pageStarts(pages)).toEqual([0, 7]);
  });
  it("keeps consistent given starts", () => {
    const pages = [
      { number: 1, char_start: 0, text: "abc" },
      { number: 2, char_start: 4, text: "de" },
    ];
    expect(pageStarts(pages)).toEqual([0, 4]);
  });
});

describe("locateSpan", () => {
  // Document text as Go builds it: pages joined with "\f".
  const pages = [
    { number: 1, char_start: 0, text: "Intro: café\n" },
    { number: 2, char_start: 0, text: "第一条 民事主体 😀 rights" },
    { number: 3, char_start: 0, text: "End." },
  ];
  const doc = pages.map((p) => p.text).join("\f");
  const bytes = enc.encode(doc);
  const byteOf = (needle: string) => enc.encode(doc.slice(0, doc.indexOf(needle))).length;

  it("finds a span inside one page", () => {
    const start = byteOf("民事");
    const end = start + utf8Length("民事主体");
    const spans = locateSpan(pages, start, end);
    expect(spans).toHaveLength(1);
    expect(spans[0].page).toBe(2);
    expect(pages[1].text.slice(spans[0].start, spans[0].end)).toBe("民事主体");
    expect(new TextDecoder().decode(bytes.slice(start, end))).toBe("民事主体");
  });

  it("splits a span across pages, skipping the separator", () => {
    const start = byteOf("café");
    const end = byteOf("民事");
    const spans = locateSpan(pages, start, end);
    expect(spans.map((s) => s.page)).toEqual([1, 2]);
    expect(pages[0].text.slice(spans[0].start, spans[0].end)).toBe("café\n");
    expect(pages[1].text.slice(spans[1].start, spans[1].end)).toBe("第一条 ");
  });

  it("handles astral characters", () => {
    const start = byteOf("😀");
    const spans = locateSpan(pages, start, start + 4 + utf8Length(" rights"));
    expect(pages[1].text.slice(spans[0].start, spans[0].end)).toBe("😀 rights");
  });

  it("widens an end that falls inside a character", () => {
    const start = byteOf("民事");
    const spans = locateSpan(pages, start, start + 1);
    expect(pages[1].text.slice(spans[0].start, spans[0].end)).toBe("民");
  });

  it("returns nothing for empty or out-of-range spans", () => {
    expect(locateSpan(pages, 5, 5)).toEqual([]);
    expect(locateSpan(pages, 10_000, 10_010)).toEqual([]);
  });
});
