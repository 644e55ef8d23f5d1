/**
 * What each message code is, so the dispatcher knows how to answer it. The table is exhaustive: a code added to
 * MESSAGES without a kind here does not compile.
 * - `input`: how a command was typed (a bad value, a missing option, a catalog value that does not exist);
 *   the dispatcher adds the command's usage and an example, whether the parser or a handler found it.
 * - `state`: the command was typed right, but the state of things refuses it (no such video or series, nothing
 *   connected, not allowed, not linked, expired, not enough credits); no usage. Form labels are here too.
 * - `failure`: something broke, at the video service or on the bot's side; trying again later may work.
 */
import type { MessageCode } from './messages.js';

export type MessageKind = 'input' | 'state' | 'failure';

export const MESSAGE_KINDS: Readonly<Record<MessageCode, MessageKind>> = {
  // Grammar and arguments
  'unknown-command': 'input', // also `help <name>` for a command that does not exist
  'unknown-subcommand': 'input',
  'missing-subcommand': 'input',
  'unknown-flag': 'input',
  'missing-flag-value': 'input',
  'missing-arg': 'input',
  'extra-arg': 'input',
  'unterminated-quote': 'input',
  'bad-int': 'input',
  'int-range': 'input',
  'bad-boolean': 'input',
  'bad-choice': 'input',
  'bad-platform': 'input',
  'bad-url': 'input',
  'too-long': 'input',
  'too-short': 'input',
  'field-required': 'input',
  'typed-too-long': 'input',
  'file-wrong-type': 'input',
  'file-too-large': 'input',
  'file-not-text': 'input',
  'file-not-found': 'state',
  'file-links-unsupported': 'state',
  'bad-date': 'input',
  'bad-when': 'input',
  'past-time': 'input',
  'past-day': 'input',
  'too-far-ahead': 'input',
  'bad-timezone': 'input',

  // References: videos and series are the team's own things, and one not found is not a typing mistake;
  // voices and accounts are catalog values typed as options, like a style (`bad-choice`).
  'not-found-video': 'state',
  'not-found-series': 'state',
  'ambiguous-video': 'state',
  'ambiguous-series': 'state',
  'no-last': 'state',
  'not-found-voice': 'input',
  'not-found-account': 'input',
  'form-account-elsewhere': 'input',
  'no-account': 'state',

  // Videos
  'ambiguous-voice': 'input',
  'voice-wrong-language': 'input',
  'no-voices': 'state',
  'model-unavailable': 'state',
  'not-your-request': 'state',
  'request-expired': 'state',
  'render-not-ready': 'state',
  'render-of-failed': 'state',
  'bad-button': 'input',

  // Keys and people
  'approval-external-org': 'state',
  'workspace-not-allowed': 'state',
  'not-linked': 'state',
  'key-in-channel': 'state',
  'key-unreadable': 'failure',
  'bad-key': 'input',
  'interaction-expired': 'state',
  'one-shot-done': 'state',
  'typed-replay': 'state',
  'typed-replay-note': 'state',
  'form-cancel': 'state',
  'form-open-button': 'state',
  'form-open-later': 'state',
  'form-not-saved': 'state',
  'not-allowed': 'state',

  // Account, catalog and channel commands
  'key-empty': 'input', // a form field's error, like key-malformed and meta-required
  'key-malformed': 'input',
  'key-check-failed': 'failure',
  'bad-mime': 'input',
  'page-out-of-range': 'input',
  'bad-setting-value': 'input',
  'setting-needs-value': 'input',
  'bad-mention': 'input',
  'subscribe-needs-series': 'input',
  'subscribe-no-target': 'input',
  'notify-off-and-dm': 'input',
  'approval-needs-admin': 'state',
  'admin-lockout': 'input', // the admin list typed leaves its author out
  'policy-admins-only': 'state',
  'policy-loosen': 'state',
  'audit-workspace-admins': 'state',
  'policy-in-dm': 'state',
  'role-nobody': 'state',
  'nobody-holds-role': 'state',
  'nobody-holds-role-servers': 'state',
  'nobody-approves': 'state',
  'config-external-org': 'state',
  'not-subscribed': 'state',
  'home-unsubscribe-not-member': 'state',

  // Series
  'series-bad-time': 'input',
  'series-bad-days': 'input',
  'series-bad-schedule': 'input',
  'series-unknown-value': 'input',
  'series-bad-layout': 'input',
  'series-bad-thumbnail-settings': 'input',
  'series-nothing-to-change': 'input',

  // Publishing
  'meta-required': 'input',
  'meta-too-long': 'input',
  'when-needs-time': 'input',
  'privacy-youtube-only': 'input',
  'caption-audio-and-video': 'input',
  'publish-too-long': 'input',
  'description-unsupported': 'input',
  'account-choose': 'state',
  'publish-video-failed': 'state',
  'schedule-video-failed': 'state',
  'reschedule-nothing': 'state',
  'move-other-due': 'state',
  'move-nothing-left': 'state',
  'move-incomplete': 'failure',
  'date-range-reversed': 'input',
  'calendar-range-too-long': 'input',

  // Approvals, roles and audit
  'approval-no-approvers': 'state',
  'approval-only-you': 'state',
  'content-locked': 'state',
  'approval-elsewhere': 'state',
  'approval-not-approver': 'state',
  'approval-unverifiable': 'failure',
  'approval-self': 'state',
  'approval-malformed': 'state',
  'approval-not-rendered': 'state',
  'approval-too-late': 'state',
  'approval-not-charged': 'state',
  'approval-create-cancelled': 'state',
  'approval-retry-approver': 'state',
  'approval-withdraw-not-yours': 'state',
  'csv-with-page': 'input',
  'file-in-dm': 'state',
  'file-not-carried': 'state',
  'file-upload-failed': 'failure',
  'table-more-rows': 'state',
  'card-files-refused': 'failure',

  // API failures, by error.type: refusals about the team's key, credits or data are states
  'api.invalid_input': 'state',
  'api.unauthorized': 'state',
  'api.insufficient_credits': 'state',
  'api.payment_failed': 'state',
  'api.forbidden_scope': 'state',
  'api.usage_limit_reached': 'state',
  'api.not_found': 'state',
  'api.conflict': 'state',
  'api.rate_limited': 'failure',
  'api.internal_error': 'failure',
  'api.connection_error': 'failure',
  'api.timeout': 'failure',
  'api.invalid_response': 'failure',
  'api.unknown': 'failure',
  internal: 'failure',
  'internal-after-write': 'failure',
  'effect-unsaved': 'failure',
  'database-busy': 'failure',
};
