import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';

export interface Token {
  text: string;
  /** Offsets of the raw token in the input (quotes included). */
  start: number;
  end: number;
  quoted: boolean;
}

// Chat clients turn straight quotes into typographic ones; accept both.
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '”': '”', '‘': '’', '’': '’' };

/** Splits command text into words; quoted strings stay whole; `\"` escapes a quote inside quotes. */
export function tokenize(input: string): Result<Token[]> {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i] as string)) i++;
    if (i >= input.length) break;
    const start = i;
    let text = '';
    let quoted = false;
    while (i < input.length && !/\s/.test(input[i] as string)) {
      const ch = input[i] as string;
      const close = QUOTES[ch];
      if (close) {
        quoted = true;
        i++;
        let closed = false;
        while (i < input.length) {
          const c = input[i] as string;
          if (c === '\\' && (input[i + 1] === close || input[i + 1] === '\\')) {
            text += input[i + 1];
            i += 2;
          } else if (c === close || (close === '"' && c === '”') || (close === '”' && c === '"')) {
            i++;
            closed = true;
            break;
          } else {
            text += c;
            i++;
          }
        }
        if (!closed) return err(userError('unterminated-quote', { at: start + 1 }));
      } else {
        text += ch;
        i++;
      }
    }
    tokens.push({ text, start, end: i, quoted });
  }
  return ok(tokens);
}
