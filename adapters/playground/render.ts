/**
 * A neutral `Card` → HTML. Every interpolated value is escaped (text through `markdownToHtml`, which
 * escapes first); URLs become links or image sources only when they are http(s). Controls carry their
 * `action`/`value` in data attributes for the page script, and `data-testid`s for tests.
 */
import escapeHtml from 'escape-html';
import type {
  Button,
  Card,
  Control,
  Field,
  Image,
  Progress,
  Section,
  Select,
  Tone,
  Video,
} from '../../src/core/index.js';
import { mention, sectionWords } from '../../src/core/index.js';
import { renderCharts, renderTable } from './html/data.js';
import { isWebUrl, markdownToHtml, plainText, plainToHtml } from './text.js';

const TONES: readonly Tone[] = ['neutral', 'info', 'progress', 'success', 'warning', 'danger'];

export function renderCard(card: Card): string {
  const tone = card.tone && TONES.includes(card.tone) ? card.tone : 'neutral';
  const title = plainToHtml(card.title);
  const heading =
    card.url && isWebUrl(card.url)
      ? `<a href="${escapeHtml(card.url)}" target="_blank" rel="noopener noreferrer">${title}</a>`
      : title;
  return [
    `<section class="card tone-${tone}" data-testid="card" data-tone="${tone}">`,
    card.notify?.length ? renderNotify(card.notify) : '',
    `<h3 class="card-title" data-testid="card-title">${heading}</h3>`,
    card.text ? `<div class="card-text">${markdownToHtml(card.text)}</div>` : '',
    card.progress ? renderProgress(card.progress) : '',
    card.fields?.length ? renderFields(card.fields) : '',
    card.charts?.length ? renderCharts(card.charts) : '',
    card.table ? renderTable(card.table) : '',
    card.image ? renderImage(card.image, 'card-image') : '',
    card.video ? renderVideo(card.video) : '',
    renderSections(card.sections ?? [], card.carousel === true),
    card.controls?.length ? renderControls(card.controls) : '',
    card.context ? `<p class="card-context">${markdownToHtml(card.context)}</p>` : '',
    '</section>',
  ].join('');
}

/** Who the message pings on chat platforms (approvers of an approval card), shown above the card. */
function renderNotify(refs: readonly string[]): string {
  return `<p class="card-notify" data-testid="card-notify">${markdownToHtml(refs.map(mention).join(' '))}</p>`;
}

function renderProgress(progress: Progress): string {
  const percent = Number.isFinite(progress.percent)
    ? Math.max(0, Math.min(100, Math.round(progress.percent)))
    : 0;
  // The core's label starts with a text-art bar for platforms without a native one; this page has one.
  const label = (progress.label ?? '').replace(/^[▓░█▒]+\s*/u, '') || `${percent}%`;
  return (
    '<div class="card-progress">' +
    `<progress max="100" value="${percent}" data-testid="card-progress" aria-label="${escapeHtml(plainText(label))}">${percent}%</progress>` +
    `<span class="progress-label">${markdownToHtml(label)}</span>` +
    '</div>'
  );
}

function renderFields(fields: Field[]): string {
  const items = fields.map(
    (f) =>
      `<div class="field${f.short ? ' field-short' : ''}"><dt>${plainToHtml(f.label)}</dt>` +
      `<dd>${markdownToHtml(f.value)}</dd></div>`,
  );
  return `<dl class="card-fields">${items.join('')}</dl>`;
}

/** Images only from http(s); anything else is shown as its alt text, never fetched. */
function renderImage(image: Image, className: string): string {
  if (!isWebUrl(image.url)) return `<p class="${className} image-missing">${escapeHtml(image.alt)}</p>`;
  return (
    `<img class="${className}" src="${escapeHtml(image.url)}" alt="${escapeHtml(image.alt)}" ` +
    'loading="lazy" referrerpolicy="no-referrer" data-testid="card-image">'
  );
}

/**
 * The rendered video, playable in place (its poster until played; nothing is fetched before that) with a
 * download link under it. Only http(s) sources; anything else is shown as its alt text.
 */
function renderVideo(video: Video): string {
  if (!isWebUrl(video.url)) return `<p class="card-video image-missing">${escapeHtml(video.alt)}</p>`;
  const url = escapeHtml(video.url);
  const poster = video.poster && isWebUrl(video.poster) ? ` poster="${escapeHtml(video.poster)}"` : '';
  return (
    '<figure class="card-video" data-testid="card-video">' +
    `<video controls preload="none" playsinline src="${url}"${poster} aria-label="${escapeHtml(video.alt)}" ` +
    'data-testid="card-video-player"></video>' +
    `<figcaption><a class="video-download" href="${url}" download target="_blank" rel="noopener noreferrer" ` +
    `data-testid="card-video-download">⬇ Download MP4</a></figcaption></figure>`
  );
}

/**
 * Sections with pictures (thumbnail options, videos) side by side as a gallery — like Discord's media
 * gallery — each picture with its text and buttons under it; sections without one follow as rows.
 */
function renderSections(sections: readonly Section[], carousel: boolean): string {
  const pictured = sections.filter((s) => s.image);
  if (pictured.length < 2) return sections.map(renderSection).join('');
  const items = pictured.map(renderGalleryItem).join('');
  const rest = sections.filter((s) => !s.image).map(renderSection);
  // Peers to compare (the thumbnail options) scroll sideways in one row, like Slack's carousel.
  const row = carousel ? ' card-carousel' : '';
  return `<div class="card-gallery${row}" data-testid="card-gallery">${items}</div>${rest.join('')}`;
}

function renderGalleryItem(section: Section): string {
  const body = sectionBody(section);
  const image = section.image ? renderImage(section.image, 'gallery-image') : '';
  return (
    '<figure class="card-section gallery-item" data-testid="card-section" data-gallery-item>' +
    `${image}<figcaption class="gallery-caption">${body}</figcaption></figure>`
  );
}

function renderSection(section: Section): string {
  const body = sectionBody(section);
  const image = section.image ? renderImage(section.image, 'section-image') : '';
  return `<div class="card-section${image ? ' has-image' : ''}" data-testid="card-section"><div class="section-body">${body}</div>${image}</div>`;
}

/** A section's words, fields and controls, the same in a gallery item and a plain section. */
function sectionBody(section: Section): string {
  return [
    sectionWords(section)
      ? `<div class="section-text">${markdownToHtml(sectionWords(section) ?? '')}</div>`
      : '',
    section.fields?.length ? renderFields(section.fields) : '',
    section.controls?.length ? renderControls(section.controls) : '',
  ].join('');
}

function renderControls(controls: Control[]): string {
  return `<div class="card-controls" role="group">${controls.map(renderControl).join('')}</div>`;
}

function renderControl(control: Control): string {
  switch (control.kind) {
    case 'button':
      return renderButton(control);
    case 'link':
      return isWebUrl(control.url)
        ? `<a class="btn btn-link" href="${escapeHtml(control.url)}" target="_blank" rel="noopener noreferrer" ` +
            `data-testid="card-link">${escapeHtml(control.label)}</a>`
        : `<span class="btn btn-disabled">${escapeHtml(control.label)}</span>`;
    case 'select':
      return renderSelect(control);
  }
}

function renderButton(button: Button): string {
  const style = button.style === 'primary' || button.style === 'danger' ? ` btn-${button.style}` : '';
  const confirm = button.confirm
    ? ` data-confirm-title="${escapeHtml(plainText(button.confirm.title))}" data-confirm-text="${escapeHtml(plainText(button.confirm.text))}"` +
      ` data-confirm-yes="${escapeHtml(button.confirm.confirm)}" data-confirm-no="${escapeHtml(button.confirm.deny)}"`
    : '';
  return (
    `<button type="button" class="btn${style}" data-testid="card-button" data-action="${escapeHtml(button.action)}" ` +
    `data-value="${escapeHtml(button.value)}"${confirm}>${escapeHtml(button.label)}</button>`
  );
}

function renderSelect(select: Select): string {
  const hasInitial = select.options.some((o) => o.value === select.initial);
  const options = select.options.map(
    (o) =>
      `<option value="${escapeHtml(o.value)}"${o.value === select.initial ? ' selected' : ''}` +
      `${o.description ? ` title="${escapeHtml(o.description)}"` : ''}>${escapeHtml(o.label)}</option>`,
  );
  return (
    `<select class="select" data-testid="card-select" data-action="${escapeHtml(select.action)}" ` +
    `aria-label="${escapeHtml(select.placeholder)}">` +
    `<option value="" disabled${hasInitial ? '' : ' selected'}>${escapeHtml(select.placeholder)}</option>` +
    `${options.join('')}</select>`
  );
}
