/**
 * The video status card: one per video per channel, edited in place as the video moves
 * (progress → thumbnails with "Use this" → render → schedule/posts). Built from a JSON view-model kept
 * with the card, so each job (generation, render, schedule) merges its part without re-reading the rest.
 */

import { platformName } from '../platforms/names.js';
import type { Button, Card, Control, Field, Progress, Section, Tone, Video } from '../text/cards.js';
import { humanise } from '../text/labels.js';
import { type CardText, code, command, joinText, link, literal, md } from '../text/text.js';
import type { Ping } from './pings.js';
import { type CardThumbnails, thumbnailSections, thumbnailsPending } from './thumbnail-options.js';
import { approvalLine, type VideoApproval } from './video-card-approval.js';
import { type PostResult, resultsLines } from './video-card-results.js';

/** Values as given (names, API texts): `renderVideoCard` escapes them; only `notice` is card markdown. */
export interface VideoCardModel {
  videoId: string;
  name: string;
  /** `caption` for captioned media (POST /videos/captions); default `video`. */
  kind?: 'video' | 'caption';
  requestedBy?: string;
  model?: string;
  credits?: number;
  phase: 'generating' | 'completed' | 'failed';
  percent?: number;
  /** Estimated time left while generating (ms), from the watcher's progress rate. */
  etaMs?: number;
  errorMessages?: string[];
  thumbnails?: CardThumbnails;
  render?: { renderId: string; status: string; progress: number; url?: string; codec?: string };
  schedule?: { platforms: string[]; at: string; zone: string; statuses?: Record<string, string> };
  posts?: { platform: string; url?: string; status: string }[];
  /** Each post's views as the analytics reported them, at about a day and at 7 days (results-watcher.ts). */
  results?: PostResult[];
  /** A one-line note under the text, as card markdown (e.g. "Stopped watching after 6 h"). */
  notice?: CardText;
  /** Warnings the service gave while the job still runs (`errorMessages` while processing): notes, not failure. */
  warnings?: string[];
  /** Set while looks at the job keep failing ("Can't read the video service's answer right now…"). */
  trouble?: string;
  /** Set when the video was deleted from chat: the card keeps only a tombstone. */
  deletedBy?: string;
  /** The latest approval request about this video (approvals/effects.ts), decided anywhere. */
  approval?: VideoApproval;
}

/** `▓▓▓▓░░░░░░ 42%` — readable on every platform, including ones without a native progress bar. */
export const progressBar = (percent: number): CardText => {
  const clamped = Math.max(0, Math.min(100, percent));
  const filled = Math.round(clamped / 10);
  return literal(`${'▓'.repeat(filled)}${'░'.repeat(10 - filled)} ${Math.round(clamped)}%`);
};

/** "about 2 min left" / "under a minute left". */
export const etaText = (ms: number): CardText => {
  if (ms < 60_000) return md`under a minute left`;
  const minutes = Math.round(ms / 60_000);
  return md`about ${minutes} min left`;
};

/**
 * A finished video's headline: where the video is now, what its thumbnails are, and what to do
 * next, so that after each step (generated, rendering, rendered, scheduled, posted) the card says so.
 */
function completedText(m: VideoCardModel): CardText {
  return joinText([whereItIs(m), thumbnailsLine(m.thumbnails), nextStep(m)].filter(Boolean), ' ');
}

/** The furthest step the video has reached: posted, scheduled, rendered (or rendering), generated. */
function whereItIs(m: VideoCardModel): CardText {
  const posted = (m.posts ?? []).filter((p) => p.status === 'posted').map((p) => platformName(p.platform));
  if (posted.length > 0) return md`**Posted** to ${literal(unique(posted).join(', '))}.`;
  const pending = scheduledPlatforms(m);
  if (m.schedule && pending.length > 0) {
    const names = pending.map(platformName).join(', ');
    return md`**Scheduled** for ${literal(`${m.schedule.at} ${m.schedule.zone}`)} on ${literal(names)}.`;
  }
  switch (m.render?.status) {
    case 'done':
      return m.render.url ? md`**Rendered.**` : generated(m);
    case 'error':
      return md`${generated(m)} **The render failed.**`;
    case undefined:
      return generated(m);
    default:
      return md`${generated(m)} **Rendering the MP4…**`;
  }
}

const generated = (m: VideoCardModel): CardText => (m.kind === 'caption' ? md`Captioned.` : md`Generated.`);

/** Platforms of the schedule that have not settled (posted or failed) yet. */
const scheduledPlatforms = (m: VideoCardModel): string[] =>
  (m.schedule?.platforms ?? []).filter((p) => !m.schedule?.statuses?.[p]);

const unique = (values: string[]): string[] => [...new Set(values)];

function thumbnailsLine(t: CardThumbnails | undefined): CardText {
  if (!t || thumbnailsPending(t.status)) return md`Thumbnails are on the way…`;
  if (t.status === 'failed' || t.variants.length === 0) {
    return md`Thumbnails could not be made; the video is fine and keeps its default frame.`;
  }
  const partial =
    t.status === 'partial'
      ? md`Only ${t.variants.length} of 3 thumbnail options came out; they are still usable. `
      : md``;
  const pick =
    t.selectedBy === 'user'
      ? md`Your thumbnail pick is marked ✅.`
      : md`The ⭐ AI pick is used unless you choose another with **Use this**.`;
  return md`${partial}${pick}`;
}

/** What to do next from where the video is; nothing once it is out. */
function nextStep(m: VideoCardModel): CardText {
  if ((m.posts ?? []).some((p) => p.status === 'posted')) return md``;
  if (m.schedule && scheduledPlatforms(m).length > 0) return md`It posts then; nothing else to do.`;
  switch (m.render?.status) {
    case undefined:
      return thumbnailsPending(m.thumbnails?.status)
        ? md`Meanwhile you can render or schedule.`
        : md`Then render or schedule.`;
    case 'done':
      return m.render.url
        ? md`Watch it here or download the MP4, then **Schedule** or **Publish now**.`
        : md`Then render or schedule.`;
    case 'error':
      return md``; // the Render field says how to try again
    default:
      return md`The MP4 shows here when it is done; meanwhile you can schedule.`;
  }
}

/** One line per value (API texts), each escaped after `mark`. */
const _escapedLines = (values: readonly string[], mark: CardText): CardText =>
  joinText(
    values.map((v) => md`${mark}${literal(v)}`),
    '\n',
  );

export function renderVideoCard(m: VideoCardModel): Card {
  if (m.deletedBy !== undefined) return deletedCard(m, m.deletedBy);
  const phase = PHASES[m.phase](m);
  const card: Card = { title: literal(m.name), tone: phase.tone, text: withNotes(phase.text, m) };
  if (phase.progress) card.progress = phase.progress;
  const video = renderedVideo(m);
  if (video) card.video = video;
  card.context = md`${m.requestedBy ? md`Requested by ${literal(m.requestedBy)} · ` : md``}id ${code(m.videoId)}`;
  const fields = [...costFields(m), ...renderFields(m), ...scheduleFields(m), ...postFields(m)];
  const controls = m.phase === 'completed' ? completedControls(m) : [];
  if (fields.length > 0) card.fields = fields;
  // The sections are the thumbnail options: peers compared side by side where the platform can.
  if (phase.sections && phase.sections.length > 0)
    Object.assign(card, { sections: phase.sections, carousel: true });
  if (controls.length > 0) card.controls = controls;
  return card;
}

/** A deleted video's card keeps only a tombstone. */
function deletedCard(m: VideoCardModel, deletedBy: string): Card {
  return {
    title: literal(m.name),
    tone: 'neutral',
    text: md`🗑️ Deleted by ${literal(deletedBy)}. The video and its generated assets are gone (no refund).`,
    context: md`id ${code(m.videoId)}`,
  };
}

/** What a phase puts on the card: its tone and headline, and the progress or thumbnails it shows. */
interface PhasePart {
  tone: Tone;
  text: CardText;
  progress?: Progress;
  sections?: Section[];
}

const PHASES: Record<VideoCardModel['phase'], (m: VideoCardModel) => PhasePart> = {
  generating: generatingPhase,
  failed: failedPhase,
  completed: (m) => ({
    tone: 'success',
    text: completedText(m),
    sections: m.thumbnails ? thumbnailSections(m.videoId, m.thumbnails) : [],
  }),
};

function generatingPhase(m: VideoCardModel): PhasePart {
  const percent = m.percent ?? 0;
  const label =
    m.etaMs !== undefined && percent > 0
      ? md`${progressBar(percent)} · ${etaText(m.etaMs)}`
      : progressBar(percent);
  return {
    tone: 'progress',
    text:
      m.kind === 'caption'
        ? md`Transcribing and captioning your media…`
        : md`Generating voiceover, visuals and captions…`,
    progress: { percent, label },
  };
}

function failedPhase(m: VideoCardModel): PhasePart {
  const errors = (m.errorMessages ?? []).map((e) => md`• ${literal(e)}`);
  const reasons = errors.length > 0 ? joinText(errors, '\n') : md`• No reason given.`;
  return {
    tone: 'danger',
    text:
      m.kind === 'caption'
        ? md`**Captioning failed.**\n${reasons}\nCheck that the media URL is public and has speech, then run ${command('caption')} again.`
        : md`**Generation failed.**\n${reasons}\nCredits are not refunded automatically. Adjust the script or voice and run ${command('create')} again.`,
  };
}

/** The headline with what else the card says: the service's warnings, the approval, trouble, a notice. */
function withNotes(text: CardText, m: VideoCardModel): CardText {
  let out = text;
  if (m.warnings?.length && m.phase !== 'failed') {
    out = md`${out}\n${joinText(
      m.warnings.map((w) => md`⚠️ ${literal(w)}`),
      '\n',
    )}`;
  }
  if (m.approval) out = md`${out}\n${approvalLine(m.approval)}`;
  const results = m.phase === 'completed' ? resultsLines(m.results) : undefined;
  if (results) out = md`${out}\n${results}`;
  if (m.trouble) out = md`${out}\n_${literal(m.trouble)}_`;
  if (m.notice) out = md`${out}\n_${m.notice}_`;
  return out;
}

function costFields(m: VideoCardModel): Field[] {
  const fields: Field[] = [];
  // The card is built from its stored state, away from the catalogs: the model humanised (labels.ts).
  if (m.model) fields.push({ label: md`Model`, value: literal(humanise(m.model)), short: true });
  if (m.credits !== undefined) fields.push({ label: md`Credits`, value: md`${m.credits}`, short: true });
  return fields;
}

/** The video is the one way to a done render: each platform shows it with one Watch / Download link. */
function renderedVideo(m: VideoCardModel): Video | undefined {
  const r = m.render;
  if (r?.status !== 'done' || !r.url) return undefined;
  const poster = m.thumbnails?.variants.find((v) => v.id === m.thumbnails?.selectedVariantId)?.url;
  return { url: r.url, alt: `${m.name}, rendered`, ...(poster ? { poster } : {}) };
}

function renderFields(m: VideoCardModel): Field[] {
  const r = m.render;
  if (!r || (r.status === 'done' && r.url)) return [];
  if (r.status === 'error')
    return [{ label: md`Render`, value: md`Failed. Press **Render again**; rendering is free.` }];
  return [
    {
      label: md`Render`,
      value: md`${progressBar(r.progress * 100)}${r.codec ? md` (${literal(r.codec)})` : md``}`,
    },
  ];
}

function scheduleFields(m: VideoCardModel): Field[] {
  if (!m.schedule) return [];
  const statuses = m.schedule.statuses ?? {};
  const list = m.schedule.platforms
    .map((p) => `${platformName(p)}${statuses[p] ? ` (${statuses[p]})` : ''}`)
    .join(', ');
  return [{ label: md`Scheduled`, value: literal(`${m.schedule.at} ${m.schedule.zone} → ${list}`) }];
}

function postFields(m: VideoCardModel): Field[] {
  return (m.posts ?? []).map((p) => ({
    label: md`Posted: ${literal(p.platform)}`,
    value: p.url ? link('View post', p.url) : literal(p.status),
    short: true,
  }));
}

/** A finished video's buttons: render (again) unless one is running, schedule, publish now. */
function completedControls(m: VideoCardModel): Control[] {
  const r = m.render;
  const controls: Control[] = [];
  if (r?.status !== 'in-progress') {
    const again = r?.status === 'done' || r?.status === 'error';
    controls.push(
      button({
        action: 'video.render',
        value: m.videoId,
        label: again ? 'Render again' : 'Render',
        style: again ? undefined : 'primary',
      }),
    );
  }
  controls.push(
    button({ action: 'video.schedule', value: m.videoId, label: 'Schedule' }),
    button({ action: 'video.publish', value: m.videoId, label: 'Publish now' }),
  );
  return controls;
}

const button = ({
  action,
  value,
  label,
  style,
}: {
  action: string;
  value: string;
  label: string;
  style?: 'primary' | undefined;
}): Button =>
  style ? { kind: 'button', action, value, label, style } : { kind: 'button', action, value, label };

/** What a watcher's check says about its video: a card change and/or a milestone reply, each named once. */
export interface VideoEffects {
  patch?: VideoCardPatch;
  /** Names the card change (outbox dedupe). */
  dedupe?: string;
  /** A milestone; `pings`: who it concerns (their video is ready or failed), mentioned as each wants. */
  reply?: { card: Card; dedupe: string; pings?: Ping[] };
}

/** Reads a card's stored view-model back (written only by this module and `postCard`). */
export const videoCardModelOf = (model: Record<string, unknown>): VideoCardModel =>
  model as unknown as VideoCardModel;

/** A change to merge; an explicit `undefined` clears the field. */
export type VideoCardPatch = { [K in keyof VideoCardModel]?: VideoCardModel[K] | undefined };
