import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
/** Sentence punctuation that ends a URL written in running text rather than belonging to it. */
const TRAILING = /[.,;:!?)\]]+$/;

/** Plain text with its http(s) addresses made into links, so a reset link in an e-mail can be followed. */
export function LinkifiedText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '');
    const start = match.index;
    parts.push(text.slice(from, start));
    parts.push(
      <Anchor
        key={start}
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        style={{ wordBreak: 'break-all' }}
      >
        {url}
      </Anchor>,
    );
    from = start + url.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}
