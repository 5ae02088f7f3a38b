/**
 * A small streaming XML reader for the parts of an .xlsx, several times faster than a general XML parser on a
 * sheet's millions of tags: it finds tags with one regular expression, reads attributes only where asked, and
 * decodes text only while the reader wants it. It still refuses what is not well-formed XML of the kind a workbook
 * holds: tags that do not nest, unknown entities, characters XML cannot hold in wanted text, DOCTYPE declarations
 * (no workbook has one, and their entities are how XML bombs are built), a node longer than `maxNodeChars`.
 */
export interface XmlHandlers {
  /** `attributes` holds the tag's attributes (qualified names) when `wantsAttributes(name)` said so, else nothing. */
  open?: (name: string, attributes: Record<string, string>) => void;
  text?: (text: string) => void;
  close?: (name: string) => void;
}

export class XmlMalformed extends Error {}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 does not allow
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const NEEDS_WORK = new RegExp(`[&\r]|${NOT_XML.source}`);
const NONE: Record<string, string> = Object.freeze({}) as Record<string, string>;

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeReference(body: string): string {
  const named = PREDEFINED[body];
  if (named !== undefined) return named;
  const code = /^#x[0-9a-fA-F]{1,6}$/.test(body)
    ? Number.parseInt(body.slice(2), 16)
    : /^#[0-9]{1,7}$/.test(body)
      ? Number(body.slice(1))
      : -1;
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  if (!allowed) throw new XmlMalformed(`Unknown entity &${body};`);
  return String.fromCodePoint(code);
}

/**
 * Whether `raw` holds an entity, a carriage return or a character XML does not allow. A sheet has millions of short
 * values: for them a loop over the characters is several times quicker than the regular expression.
 */
function needsWork(raw: string): boolean {
  if (raw.length > 32) return NEEDS_WORK.test(raw);
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 && c !== 0x0a : c === 0x26 || c >= 0xfffe) return true;
  }
  return false;
}

/** Whether `raw` reads as itself: no entity, carriage return or character XML does not allow. */
export const isPlainXml = (raw: string) => !needsWork(raw);

/** Text or an attribute value as XML defines it: line ends made \n, then entities replaced. */
export function decodeXml(raw: string): string {
  // Most values hold none of what needs work: one test says so.
  if (!needsWork(raw)) return raw;
  if (NOT_XML.test(raw)) throw new XmlMalformed('A character XML does not allow');
  let text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  if (text.includes('&')) {
    text = text.replace(/&([^;&<]*)(;?)/g, (_, body: string, semi: string) => {
      if (!semi) throw new XmlMalformed('A bare &');
      return decodeReference(body);
    });
  }
  return text;
}

export class XmlScanner {
  private pending = '';
  /** The open elements: their qualified names (to check what closes them) and local names (for the handlers). */
  private readonly open: string[] = [];
  private readonly openLocal: string[] = [];
  private seenRoot = false;

  constructor(
    private readonly handlers: XmlHandlers,
    private readonly maxNodeChars: number,
    /** Which elements' attributes are read (by local name). */
    private readonly wantsAttributes: (name: string) => boolean = () => true,
    /** Whether text at this point is wanted (skipped text is not decoded). */
    private readonly wantsText: () => boolean = () => true,
    /**
     * Offered each tag inside the root element, at its '<', before the scanner reads it. It may take the whole
     * element itself, answering where the element ends; or answer -1 and the scanner reads the element as usual.
     * Whatever it takes must be what the scanner would read without an error (`isPlainXml` helps).
     */
    private readonly shortcut?: (xml: string, lt: number) => number,
  ) {}

  write(chunk: string): void {
    const xml = this.pending === '' ? chunk : this.pending + chunk;
    let pos = 0;
    const end = xml.length;
    let apostrophe = -1;
    while (pos < end) {
      const lt = xml.indexOf('<', pos);
      if (lt < 0) break;
      if (lt > pos) this.text(xml, pos, lt);
      pos = lt;
      if (this.shortcut !== undefined && this.open.length > 0) {
        const after = this.shortcut(xml, lt);
        if (after > lt) {
          pos = after;
          continue;
        }
      }
      const next = xml.charCodeAt(lt + 1);
      if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
        const skipped = this.special(xml, lt);
        if (skipped < 0) break;
        pos = skipped;
        continue;
      }
      if (next === 0x2f /* / */) {
        // A closing tag holds its name and white space only, so its first '>' ends it (a quote in it is refused
        // below, as not white space). Not whole yet: it goes on in the next chunk.
        const gt = xml.indexOf('>', lt + 2);
        if (gt < 0) break;
        pos = gt + 1;
        // Compared in place, not cut out: a sheet has millions of closing tags.
        const qualified = this.open.pop();
        const after = lt + 2 + (qualified?.length ?? 0);
        if (
          qualified === undefined ||
          !xml.startsWith(qualified, lt + 2) ||
          (after < gt && xml.slice(after, gt).trim() !== '')
        )
          throw new XmlMalformed('Tags do not nest');
        this.handlers.close?.(this.openLocal.pop() as string);
        continue;
      }
      if (apostrophe < lt) {
        apostrophe = xml.indexOf("'", lt);
        if (apostrophe < 0) apostrophe = Number.POSITIVE_INFINITY;
      }
      const gt = tagEnd(xml, lt, apostrophe);
      // Not a whole tag yet: it goes on in the next chunk, or it is malformed and will be refused as too long or
      // as left open at the end.
      if (gt < 0) break;
      pos = gt + 1;
      let nameEnd = lt + 1;
      for (
        let c = xml.charCodeAt(nameEnd);
        c > 0x20 && c !== 0x2f && c !== 0x3e;
        c = xml.charCodeAt(++nameEnd)
      );
      if (nameEnd === lt + 1) throw new XmlMalformed('A tag without a name');
      const qualified = xml.slice(lt + 1, nameEnd);
      const selfClosing = xml.charCodeAt(gt - 1) === 0x2f;
      if (this.open.length === 0) {
        if (this.seenRoot) throw new XmlMalformed('A second root element');
        this.seenRoot = true;
      }
      const name = localName(qualified);
      const attributesEnd = selfClosing ? gt - 1 : gt;
      const attributes =
        attributesEnd > nameEnd && this.wantsAttributes(name)
          ? readAttributes(xml, nameEnd, attributesEnd)
          : NONE;
      this.handlers.open?.(name, attributes);
      if (selfClosing) this.handlers.close?.(name);
      else {
        this.open.push(qualified);
        this.openLocal.push(name);
      }
    }
    this.pending = pos < end ? xml.slice(pos) : '';
    if (this.pending.length > this.maxNodeChars) throw new XmlMalformed('A node too long');
  }

  /** The end of the document: everything opened must be closed. */
  close(): void {
    if (this.pending.trim() !== '' || this.open.length > 0 || !this.seenRoot)
      throw new XmlMalformed('The document ends early');
  }

  private text(xml: string, from: number, to: number): void {
    if (this.open.length === 0) {
      if (xml.slice(from, to).trim() !== '') throw new XmlMalformed('Text outside the root element');
      return;
    }
    if (this.handlers.text && this.wantsText()) this.handlers.text(decodeXml(xml.slice(from, to)));
  }

  /** A comment, CDATA section or processing instruction at `lt`: answers where it ends, or -1 if not yet complete. */
  private special(xml: string, lt: number): number {
    if (xml.startsWith('<!--', lt)) {
      const close = xml.indexOf('-->', lt + 4);
      return close < 0 ? -1 : close + 3;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const close = xml.indexOf(']]>', lt + 9);
      if (close < 0) return -1;
      if (this.open.length === 0) throw new XmlMalformed('CDATA outside the root element');
      if (this.handlers.text && this.wantsText()) {
        const text = xml.slice(lt + 9, close);
        if (NOT_XML.test(text)) throw new XmlMalformed('A character XML does not allow');
        this.handlers.text(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);
      }
      return close + 3;
    }
    if (xml.charCodeAt(lt + 1) === 0x3f) {
      const close = xml.indexOf('?>', lt + 2);
      return close < 0 ? -1 : close + 2;
    }
    // Too short to tell yet, or a declaration (DOCTYPE, ENTITY…), which a workbook never has.
    if (xml.length - lt < 9 && ('<![CDATA['.startsWith(xml.slice(lt)) || '<!--'.startsWith(xml.slice(lt))))
      return -1;
    throw new XmlMalformed('A declaration');
  }
}

/**
 * Where the tag starting at `lt` ends (its '>', which may also appear inside a quoted value), or -1 when it goes
 * on past the text so far. `apostrophe` is the position of the next ' at or after `lt` (Infinity if none), kept
 * by the caller so that no search runs ahead over the whole chunk for a character most sheets never hold.
 */
function tagEnd(xml: string, lt: number, apostrophe: number): number {
  let close = xml.indexOf('>', lt);
  if (close < 0) return -1;
  if (apostrophe < close) {
    // A ' in or near the tag: read it character by character.
    let mark = 0;
    for (let i = lt + 1; i < xml.length; i++) {
      const c = xml.charCodeAt(i);
      if (mark !== 0) {
        if (c === mark) mark = 0;
      } else if (c === 0x22 || c === 0x27) mark = c;
      else if (c === 0x3e) return i;
    }
    return -1;
  }
  let at = lt;
  for (;;) {
    const quote = xml.indexOf('"', at);
    if (quote < 0 || quote > close) return close;
    const ends = xml.indexOf('"', quote + 1);
    if (ends < 0) return -1;
    at = ends + 1;
    if (ends > close) {
      close = xml.indexOf('>', at);
      if (close < 0) return -1;
    }
  }
}

/** Not empty, and none of white space, <, >, quotes or = (a loop: names are a letter or two, millions of them). */
function isAttributeName(name: string): boolean {
  if (name === '') return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    // Beyond ASCII, the regular expression's idea of white space (no-break space and the like).
    if (c >= 0x80) return !/[\s<>"'=]/.test(name);
    if (c <= 0x20 || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x27 || c === 0x3d) return false;
  }
  return true;
}

/** The attributes between `from` and `to`: name="value" or name='value', separated by white space. */
function readAttributes(xml: string, from: number, to: number): Record<string, string> {
  const attributes: Record<string, string> = {};
  let at = from;
  for (;;) {
    while (at < to && xml.charCodeAt(at) <= 0x20) at++;
    if (at >= to) return attributes;
    const equals = xml.indexOf('=', at);
    if (equals < 0 || equals >= to) throw new XmlMalformed('An attribute without a value');
    const name = xml.slice(at, equals).trim();
    let open = equals + 1;
    while (open < to && xml.charCodeAt(open) <= 0x20) open++;
    const mark = xml[open];
    if (mark !== '"' && mark !== "'") throw new XmlMalformed('An attribute value without quotes');
    const close = xml.indexOf(mark, open + 1);
    if (close < 0 || close >= to || !isAttributeName(name)) throw new XmlMalformed('A malformed attribute');
    if (Object.hasOwn(attributes, name)) throw new XmlMalformed('An attribute given twice');
    const value = xml.slice(open + 1, close);
    if (value.includes('<')) throw new XmlMalformed('A < in an attribute value');
    attributes[name] = decodeXml(value);
    at = close + 1;
    if (at < to && xml.charCodeAt(at) > 0x20)
      throw new XmlMalformed('Attributes must be separated by white space');
  }
}
