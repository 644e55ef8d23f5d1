/**
 * Neutral cards and forms: what the core says, before any adapter turns it into Block Kit, Discord
 * embeds/components or HTML. Card text (titles, text, field labels and values, section text, context,
 * progress labels, confirm titles and texts, form intros) uses a small markdown subset every adapter
 * translates: `**bold**`, `_italic_`, `` `code` ``, ```` ```code blocks``` ````, `[label](https://url)`,
 * line breaks, backslash escapes (`\*` is a plain `*`) and mention tokens. Those fields are `CardText`, which
 * only text.ts's helpers make: values the core does not control enter card text only through
 * `literal`/`code`/`link`, and people only through `mention`, or the core does not compile.
 * Button and option labels, placeholders, image alt text, form titles, submit labels and input labels/hints
 * are plain text (`string`): every adapter shows them as plain text (Slack `plain_text`, Discord labels, HTML
 * escaped), never rendering formatting, links or mentions in them.
 */

import type { Chart } from './chart.js';
import type { Table } from './table.js';
import { type CardText, joinText } from './text.js';

export type { CardText } from './text.js';

export type Tone = 'neutral' | 'info' | 'progress' | 'success' | 'warning' | 'danger';

export interface Field {
  label: CardText;
  value: CardText;
  /** Short values sit side by side where the platform allows. */
  short?: boolean;
}

export interface Image {
  url: string;
  alt: string;
}

/** A playable video (the rendered MP4): Discord shows it in a media gallery, Slack as a link and preview image. */
export interface Video {
  url: string;
  /** A still shown before it plays (the thumbnail in use). */
  poster?: string;
  alt: string;
}

/**
 * A file sent with the message (CSV exports): Slack uploads it into the conversation, Discord attaches it,
 * the playground offers it as a download. The card's text still says what it holds.
 */
export interface Attachment {
  filename: string;
  content: string;
  contentType: string;
}

export interface Confirm {
  title: CardText;
  text: CardText;
  confirm: string;
  deny: string;
}

/**
 * A button. `action` names what the core does on click; `value` carries the opaque ids it acts on
 * (DESIGN §8: a click is self-contained and re-authorised on arrival).
 */
export interface Button {
  kind: 'button';
  action: string;
  value: string;
  label: string;
  style?: 'primary' | 'danger';
  confirm?: Confirm;
}

/** A link button: opens a URL, the core is not called. */
export interface LinkButton {
  kind: 'link';
  label: string;
  url: string;
}

export interface SelectOption {
  label: string;
  value: string;
  description?: string;
}

/** A menu; on choice the core receives `action` with the chosen option's value. */
export interface Select {
  kind: 'select';
  action: string;
  placeholder: string;
  options: SelectOption[];
  initial?: string;
}

export type Control = Button | LinkButton | Select;

/** A block inside a card, e.g. one thumbnail variant with its own "Use this" button. */
export interface Section {
  /** The section's heading (`**Option 2** ⭐ AI pick`): a carousel card's title, the first line elsewhere. */
  title?: CardText;
  text?: CardText;
  fields?: Field[];
  image?: Image;
  controls?: Control[];
}

/** A section's words where it is not a card of its own: its title on the first line, then its text. */
export function sectionWords(section: Pick<Section, 'title' | 'text'>): CardText | undefined {
  const parts = [section.title, section.text].filter((part) => part?.trim());
  return parts.length > 0 ? joinText(parts, '\n') : undefined;
}

export interface Progress {
  /** 0..100 */
  percent: number;
  label?: CardText;
}

export interface Card {
  title: CardText;
  tone?: Tone;
  text?: CardText;
  fields?: Field[];
  image?: Image;
  progress?: Progress;
  sections?: Section[];
  controls?: Control[];
  /** Small footer line (ids, who did what, timestamps). */
  context?: CardText;
  /** A URL the title links to. */
  url?: string;
  /** The rendered video, playable where the platform allows. */
  video?: Video;
  /** A file sent along (exports); never part of an edit, only of a new message. */
  attachment?: Attachment;
  /**
   * People to ping with this message (user addresses, `slack-group:S1`, `discord-role:R1`), e.g. the
   * approvers of an approval card. Mentions inside the card's text never ping on Discord (embeds don't) and
   * are not meant to: only these are. Slack puts them in the message text, Discord in `content` with
   * `allowed_mentions` naming exactly them, the playground shows them above the card.
   */
  notify?: string[];
  /**
   * The sections are peers to compare (the three thumbnails): shown side by side as a row of cards where the
   * platform has one (Slack's carousel, a scrolling row in the playground), one under another elsewhere.
   */
  carousel?: boolean;
  /**
   * A list as a table: Slack's data table, an HTML table, one line per row where tables are not drawn. Rows
   * beyond what a surface holds are the producer's to offer elsewhere (the CSV export, the next page).
   */
  table?: Table;
  /** Charts (at most two), drawn natively or as an image, their numbers as text where they cannot be. */
  charts?: Chart[];
}

export interface TextInput {
  kind: 'text';
  id: string;
  /** The field's name alone: each platform marks an optional input its own way ("(optional)" or none). */
  label: string;
  multiline?: boolean;
  required?: boolean;
  placeholder?: string;
  initial?: string;
  minLength?: number;
  maxLength?: number;
  hint?: string;
  /** A secret (an API key): never prefilled again after a rejected submission, never kept by an adapter. */
  secret?: boolean;
}

export interface SelectInput {
  kind: 'select';
  id: string;
  /** The field's name alone: each platform marks an optional input its own way ("(optional)" or none). */
  label: string;
  /** Shown before anything is chosen: what to pick, or what an optional select left empty means. */
  placeholder: string;
  options: SelectOption[];
  required?: boolean;
  /** Several may be chosen: the value (and `initial`) is the chosen options' values, comma-separated. */
  multiple?: boolean;
  initial?: string;
  hint?: string;
}

/**
 * A text file the member uploads (a long script or description): `.txt`/`.md`. The adapter downloads it and
 * submits its text as the input's value, so the core reads it like a text input; too large a file, or one of
 * another type, is refused by the adapter with a message on that input.
 */
export interface FileInput {
  kind: 'file';
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  /** Accepted extensions, without the dot. */
  accept: readonly string[];
  /** Most characters the text may have once read. */
  maxLength: number;
  /** Never prefilled: a file is chosen anew each time (so code reading `initial` of any input compiles). */
  initial?: undefined;
}

/**
 * A form's inputs. A text input longer than a platform's inputs take is split by the adapter into parts
 * (`Script (part 1)`, `(part 2)`…, ids from `long-text.ts`), joined in order before the core reads them.
 */
export type FormInput = TextInput | SelectInput | FileInput;

/**
 * A notice a form sets apart above its inputs, to read before submitting: what submitting costs or replaces
 * (`warning`), something worth knowing (`info`), or why it may not go through (`error`).
 */
export interface FormAlert {
  text: CardText;
  level: 'info' | 'warning' | 'error';
}

/** A modal. `id` routes the submission back to its command; `state` carries opaque context (ids). */
export interface Form {
  id: string;
  title: string;
  submitLabel: string;
  state: string;
  inputs: FormInput[];
  /** Shown above the inputs. */
  intro?: CardText;
  /** Shown first, apart from the intro (each platform's warning style): the intro keeps what is not a warning. */
  alert?: FormAlert;
}

/** Where a reply goes: only the caller sees `ephemeral`; `channel` is posted for everyone. */
export type Visibility = 'ephemeral' | 'channel';

/** What the core answers to a command, click, form submission or autocomplete. */
export type Response =
  /**
   * A card, or several answered together (`more`: a dashboard, `home`): the adapter shows `card` and then each
   * of `more` in order, as one answer (one message where the platform fits them, else follow-ups).
   */
  | { kind: 'message'; visibility: Visibility; card: Card; more?: Card[] }
  | { kind: 'form'; form: Form }
  /** Inline errors for a submitted form, keyed by input id; the form stays open. */
  | { kind: 'form-errors'; errors: Record<string, CardText> }
  /** Replace the message carrying the clicked control (interaction messages only). */
  | { kind: 'update'; card: Card }
  | { kind: 'none' };

export const message = (card: Card, visibility: Visibility = 'ephemeral'): Response => ({
  kind: 'message',
  visibility,
  card,
});

/** Several cards as one private answer: the first leads, the rest follow in order (`home`). */
export const messages = (
  cards: readonly [Card, ...Card[]],
  visibility: Visibility = 'ephemeral',
): Response => {
  const [card, ...more] = cards;
  return { kind: 'message', visibility, card, ...(more.length > 0 ? { more } : {}) };
};

/** Platform limits the core respects before an adapter has to truncate. */
export const LIMITS = {
  buttonLabel: 75,
  selectOptions: 25,
  formInputs: 5,
  formTitle: 24,
  inputLabel: 45,
  actionValue: 90,
} as const;
