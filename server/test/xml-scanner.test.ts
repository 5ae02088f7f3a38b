import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { XmlMalformed, XmlScanner } from '../src/platform/xmlScanner';

/** Events as one list: open with attributes, text (adjacent pieces joined), close. */
type Event = ['open', string, Record<string, string>] | ['text', string] | ['close', string];

const local = (name: string) => name.slice(name.indexOf(':') + 1);

function joinText(events: Event[]): Event[] {
  const out: Event[] = [];
  for (const e of events) {
    const last = out.at(-1);
    if (e[0] === 'text' && last?.[0] === 'text') last[1] += e[1];
    else out.push(e[0] === 'text' ? ['text', e[1]] : e);
  }
  return out.filter((e) => e[0] !== 'text' || e[1] !== '');
}

/** The independent oracle: saxes, a complete XML parser. */
function withSaxes(xml: string): Event[] {
  const events: Event[] = [];
  const parser = new SaxesParser();
  // Only what is inside the root element counts (saxes also reports the white space around it).
  let depth = 0;
  parser.on('opentag', (t) => {
    depth++;
    events.push(['open', local(t.name), { ...(t.attributes as Record<string, string>) }]);
  });
  parser.on('text', (t) => {
    if (depth > 0) events.push(['text', t]);
  });
  parser.on('cdata', (t) => events.push(['text', t]));
  parser.on('closetag', (t) => {
    depth--;
    events.push(['close', local(t.name)]);
  });
  parser.write(xml).close();
  return joinText(events);
}

function withScanner(chunks: string[], maxNodeChars = 1 << 20): Event[] {
  const events: Event[] = [];
  const scanner = new XmlScanner(
    {
      open: (name, attributes) => events.push(['open', name, { ...attributes }]),
      text: (text) => events.push(['text', text]),
      close: (name) => events.push(['close', name]),
    },
    maxNodeChars,
  );
  for (const chunk of chunks) scanner.write(chunk);
  scanner.close();
  return joinText(events);
}

/** Every way of cutting the text in two, and one character at a time. */
function splits(xml: string): string[][] {
  const out: string[][] = [[xml], [...xml]];
  for (let i = 1; i < xml.length; i++) out.push([xml.slice(0, i), xml.slice(i)]);
  return out;
}

const documents = [
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="urn:x"><sheetData><row r="2"><c r="A2" t="inlineStr"><is><t>Smith &amp; Sons</t></is></c><c r="B2" s="1"><v>12.5</v></c></row></sheetData></worksheet>',
  "<x:a xmlns:x='urn:x' b='it\"s &lt;here&gt;' c=\"1 > 0\"><x:b/><x:c d = 'e'  /></x:a>",
  '<a><!-- a comment with <tags> and > --><b>one<![CDATA[ <not a tag> & ]]>two</b><?pi stuff?></a>',
  '<a>&#65;&#x42;&#x1F642;&quot;&apos;&lt;&gt;&amp;</a>',
  '<a>line\r\nbreak and\rreturn</a>',
  '<a><t xml:space="preserve">  spaced  </t><t>ünïcödé € 漢字</t></a>',
  '<a b="x&#10;y" c="&amp;&#x3c;"></a>',
  // White space before a closing tag's '>'; values and texts either side of the short-value check's 32 characters.
  '<a><b></b ><c r="A1"\tt="str"></c\n></a>',
  '<a b="a value longer than thirty-two characters &amp; more" c="short"><t>thirty-three characters and &lt;</t><t>\r\n</t></a>',
];

describe('XmlScanner', () => {
  it('reads what saxes reads, however the text is cut into chunks', () => {
    for (const xml of documents) {
      const expected = withSaxes(xml);
      for (const chunks of splits(xml)) expect(withScanner(chunks), JSON.stringify(chunks)).toEqual(expected);
    }
  });

  it('reads attributes only of the elements asked for, and text only while it is wanted', () => {
    const events: string[] = [];
    let inT = false;
    const scanner = new XmlScanner(
      {
        open: (name, attributes) => {
          events.push(`${name}${JSON.stringify(attributes)}`);
          if (name === 't') inT = true;
        },
        text: (text) => events.push(text),
        close: (name) => {
          if (name === 't') inT = false;
        },
      },
      1 << 20,
      (name) => name === 'c',
      () => inT,
    );
    scanner.write('<a x="1"><c r="A1">skipped &bogus; text<t>kept</t></c></a>');
    scanner.close();
    expect(events).toEqual(['a{}', 'c{"r":"A1"}', 't{}', 'kept']);
  });

  const refused: [string, string][] = [
    ['tags that do not nest', '<a><b></a></b>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['a character reference XML does not allow', '<a>&#0;</a>'],
    ['a control character', '<a>bell\u0007</a>'],
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY x "xx">]><a>&x;</a>'],
    ['text outside the root', '<a/>stray'],
    ['a second root', '<a/><b/>'],
    ['a document that ends early', '<a><b>'],
    ['an unfinished tag', '<a><b c="1"'],
    ['an attribute given twice', '<a b="1" b="2"/>'],
    ['an attribute without quotes', '<a b=1/>'],
    ['a < in an attribute', '<a b="<"/>'],
    ['a quote in a closing tag', '<a><b></b"></a>'],
    ['an attribute name with a no-break space', '<a b\u00a0c="1"/>'],
    ['a character XML does not allow in a short attribute value', '<a b="x\uffffy"/>'],
    ['a control character in a long text', `<a>${'x'.repeat(40)}\u0001</a>`],
    ['an empty document', '   '],
  ];
  for (const [what, xml] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => withScanner([xml])).toThrow(XmlMalformed);
    });
  }

  it('refuses a node longer than its bound, without holding more of it', () => {
    expect(() => withScanner(['<a><b c="', 'x'.repeat(5000), '"/></a>'], 1000)).toThrow(XmlMalformed);
    expect(() => withScanner(['<a>', 'x'.repeat(5000), '</a>'], 1000)).toThrow(XmlMalformed);
    expect(withScanner(['<a>', 'x'.repeat(500), '</a>'], 1000)).toEqual([
      ['open', 'a', {}],
      ['text', 'x'.repeat(500)],
      ['close', 'a'],
    ]);
  });
});
