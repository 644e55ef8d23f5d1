/**
 * The video status card: one per video per channel, edited in place as the video moves
 * (progress → thumbnails with "Use this" → render → schedule/posts). Built from a JSON view-model kept
 * with the card, so each job (generation, render, schedule) merges its part without re-reading the rest.
 */
import type { Button, Card, Control, Section } from '../cards.js';
import type { Store } from '../ports.js';
import { editCard } from './live-card.js';

export interface VideoCardModel {
  videoId: string;
  name: string;
  requestedBy?: string;
  model?: string;
  credits?: number;
  phase: 'generating' | 'completed' | 'failed';
  percent?: number;
  errorMessages?: string[];
  thumbnails?: {
    status: string;
    selectedVariantId?: string;
    selectedBy?: string;
    variants: { id: string; url: string; hookText?: string; score?: number; grade?: string }[];
  };
  render?: { renderId: string; status: string; progress: number; url?: string };
  schedule?: { platforms: string[]; at: string; zone: string; statuses?: Record<string, string> };
  posts?: { platform: string; url?: string; status: string }[];
}

const bar = (percent: number): string => {
  const filled = Math.round(Math.max(0, Math.min(100, percent)) / 10);
  return `${'▓'.repeat(filled)}${'░'.repeat(10 - filled)} ${Math.round(percent)}%`;
};

export function renderVideoCard(m: VideoCardModel): Card {
  const card: Card = { title: m.name, fields: [], sections: [], controls: [] };
  const controls = card.controls as Control[];
  const sections = card.sections as Section[];
  const fields = card.fields as NonNullable<Card['fields']>;
  if (m.model) fields.push({ label: 'Model', value: m.model, short: true });
  if (m.credits !== undefined) fields.push({ label: 'Credits', value: String(m.credits), short: true });

  if (m.phase === 'generating') {
    card.tone = 'progress';
    card.text = 'Generating voiceover, visuals and captions…';
    card.progress = { percent: m.percent ?? 0, label: bar(m.percent ?? 0) };
  } else if (m.phase === 'failed') {
    card.tone = 'danger';
    card.text =
      `**Generation failed.**\n${(m.errorMessages ?? []).map((e) => `• ${e}`).join('\n') || '• No reason given.'}\n` +
      'Credits are not refunded automatically. Fix the script or voice and run `/reel create` again.';
  } else {
    card.tone = 'success';
    card.text = 'Generated. Pick a thumbnail, then render or schedule.';
  }

  const t = m.thumbnails;
  if (m.phase === 'completed' && t) {
    if (t.variants.length === 0) {
      card.text +=
        t.status === 'failed'
          ? '\nThumbnails could not be generated; the video is fine.'
          : '\nThumbnails are on the way…';
    }
    t.variants.forEach((v, i) => {
      const picked = v.id === t.selectedVariantId;
      const facts = [v.grade && `grade ${v.grade}`, v.score !== undefined && `score ${v.score}`]
        .filter(Boolean)
        .join(' · ');
      sections.push({
        text: `**Option ${i + 1}**${picked ? (t.selectedBy === 'user' ? ' ✅ your pick' : ' ⭐ AI pick') : ''}\n${v.hookText ? `“${v.hookText}”\n` : ''}${facts}`,
        image: {
          url: v.url,
          alt: v.hookText ? `Thumbnail option ${i + 1}: ${v.hookText}` : `Thumbnail option ${i + 1}`,
        },
        controls: picked && t.selectedBy === 'user' ? [] : [useThis(m.videoId, v.id)],
      });
    });
  }

  if (m.render) {
    const r = m.render;
    if (r.status === 'done' && r.url) {
      fields.push({ label: 'Render', value: `[Download MP4](${r.url})` });
      controls.push({ kind: 'link', label: 'Download MP4', url: r.url });
    } else if (r.status === 'error') fields.push({ label: 'Render', value: 'Failed. Try `Render` again.' });
    else fields.push({ label: 'Render', value: bar(r.progress * 100) });
  }
  if (m.schedule) {
    const statuses = m.schedule.statuses ?? {};
    const list = m.schedule.platforms.map((p) => `${p}${statuses[p] ? ` (${statuses[p]})` : ''}`).join(', ');
    fields.push({ label: 'Scheduled', value: `${m.schedule.at} ${m.schedule.zone} → ${list}` });
  }
  for (const p of m.posts ?? []) {
    fields.push({
      label: `Posted: ${p.platform}`,
      value: p.url ? `[View post](${p.url})` : p.status,
      short: true,
    });
  }

  if (m.phase === 'completed') {
    const rendering = m.render && m.render.status === 'in-progress';
    if (!rendering)
      controls.unshift(
        button('video.render', m.videoId, m.render?.status === 'done' ? 'Render again' : 'Render'),
      );
    controls.push(
      button('video.schedule', m.videoId, 'Schedule'),
      button('video.publish', m.videoId, 'Publish now'),
    );
  }
  card.context = `${m.requestedBy ? `Requested by ${m.requestedBy} · ` : ''}id \`${m.videoId}\``;
  if (fields.length === 0) delete card.fields;
  if (sections.length === 0) delete card.sections;
  if (controls.length === 0) delete card.controls;
  return card;
}

const button = (action: string, value: string, label: string, style?: 'primary'): Button =>
  style ? { kind: 'button', action, value, label, style } : { kind: 'button', action, value, label };

/** "Use this" carries `<videoId>:<variantId>`; the click is re-authorised with the clicker's key. */
const useThis = (videoId: string, variantId: string): Button => ({
  kind: 'button',
  action: 'thumbnail.pick',
  value: `${videoId}:${variantId}`,
  label: 'Use this',
  style: 'primary',
});

/**
 * Merges a change into a video card's model, re-renders and queues the edit. Call inside a transaction
 * with the state change; `dedupeKey` names the change.
 */
export function updateVideoCard(
  store: Store,
  key: string,
  patch: Partial<VideoCardModel>,
  dedupeKey: string,
): VideoCardModel | undefined {
  const record = store.cards.get(key);
  if (!record) return undefined;
  const model = { ...(record.model as unknown as VideoCardModel), ...patch };
  editCard(store, key, renderVideoCard(model), dedupeKey, model as unknown as Record<string, unknown>);
  return model;
}
