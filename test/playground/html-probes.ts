/**
 * What the playground's HTML renderers are probed with: a hostile string, and a cheap tag parser to check the
 * structure without a DOM.
 */
import { md } from '../../src/core/text/text.js';

export const HOSTILE = md`<script>alert("x")</script><img src=x onerror=alert(1)>'"&`;

/** Parses the rendered HTML's tags (a cheap structural check without a DOM). */
export const tags = (html: string): string[] =>
  [...html.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((m) => (m[1] as string).toLowerCase());
