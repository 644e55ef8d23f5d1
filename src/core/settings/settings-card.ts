/**
 * The settings card: the channel's own presentation settings and the effective policy, each governance rule
 * marked with where it comes from (the workspace policy, or this channel's tightening).
 */
import { formatHolders } from '../approvals/holders.js';
import { stagesOf } from '../approvals/stages.js';
import { formatMentions } from '../people/mentions.js';
import type { ChannelSettings, PolicyTightening } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { type CardText, command, hole, joinText, literal, md } from '../text/text.js';
import { nobodyHere, nobodyWarnings, serversNobodyWarnings } from './channel-recheck.js';
import { ROLES, roleVerb } from './setting-change.js';

export interface SettingsView {
  /** Effective settings (`ctx.settings()`). */
  settings: ChannelSettings;
  /** This channel's tightening. */
  here: PolicyTightening;
  /** How the inherited policy is named: "workspace policy", or for Discord DMs "servers' policies". */
  inherited: string;
  /** The queue's slots and caps in words, one line per platform that has some (`queueLines`); none: no row. */
  queue?: CardText[];
  /** The workspace's budget alerts in words (`alertsLine`); none set: no row. */
  alerts?: CardText;
}

export function settingsCard(view: SettingsView): Card {
  const { settings: s, here } = view;
  const from = (tightened: boolean) =>
    md` · from ${tightened ? md`this channel` : md`the ${literal(view.inherited)}`}`;
  const ownNobody = nobodyHere(s, here);
  const warnings: CardText[] = nobodyWarnings(ownNobody, 'this channel');
  // Servers' policies with no one in common (Discord DMs): fixed in the servers, not here.
  warnings.push(...serversNobodyWarnings(s, here));
  if (s.approval !== 'off' && s.approvers.length === 0 && !ownNobody.some((r) => r.kind === 'approvers')) {
    warnings.push(
      md`⚠️ Approval is on but nobody is an approver: set them with ${command('settings', ['approvers', '@name'])}.`,
    );
  }
  const lifetime = s.requestLifetimeMs ?? 24 * 60 * 60_000;
  return {
    title: md`Channel settings`,
    tone: 'info',
    ...(warnings.length > 0 ? { text: joinText(warnings, '\n') } : {}),
    fields: [
      {
        label: md`Threading`,
        value: s.threading ? md`on (milestones in the card’s thread)` : md`off`,
        short: true,
      },
      {
        label: md`Time zone`,
        value: s.timeZone !== undefined ? literal(s.timeZone) : md`not set (members’ own zones, else UTC)`,
        short: true,
      },
      {
        label: md`Approval`,
        value: md`${literal(s.approval)} — ${approvalText(s)}${from(here.approval !== undefined)}`,
      },
      {
        label: md`Approvers`,
        value: md`${formatMentions(s.approvers, md`nobody yet`)}${from(here.approvers !== undefined)}`,
        short: true,
      },
      ...(s.stages && s.stages.length > 1 ? [{ label: md`Stages`, value: stagesText(s) }] : []),
      {
        label: md`Self-approval`,
        value: md`${s.selfApproval ? md`allowed` : md`not allowed`}${from(here.selfApproval !== undefined)}`,
        short: true,
      },
      {
        label: md`Spend threshold`,
        value: md`${s.spendThreshold} credits${from(here.spendThreshold !== undefined)}`,
        short: true,
      },
      ...(s.monthlyCap === undefined
        ? []
        : [
            {
              label: md`Monthly cap`,
              value: md`${s.monthlyCap} credits${from(here.monthlyCap !== undefined)}`,
              short: true,
            },
          ]),
      {
        label: md`Request lifetime`,
        value: md`${formatDuration(lifetime)}${from(here.requestLifetimeMs !== undefined)}`,
        short: true,
      },
      {
        label: md`Roles`,
        value: joinText(
          ROLES.map(
            (r) => md`${roleVerb(r)}: ${formatHolders(s.roles[r])}${from(here.roles?.[r] !== undefined)}`,
          ),
          '\n',
        ),
      },
      ...(view.queue && view.queue.length > 0
        ? [{ label: md`Queue`, value: joinText(view.queue, '\n') }]
        : []),
      ...(view.alerts ? [{ label: md`Budget alerts`, value: view.alerts }] : []),
    ],
    context: md`Team rules (approval, approvers, roles, threshold, self-approval, lifetime) are set for the whole workspace by its admins; add \`--here\` to make one stricter in this channel only. Change one with ${command('settings', [hole('key'), hole('value')])}.`,
  };
}

export function approvalText(s: Pick<ChannelSettings, 'approval' | 'spendThreshold'>): CardText {
  if (s.approval === 'off') return md`publishing needs no approval`;
  if (s.approval === 'publish') return md`publishing and scheduling need an approver`;
  return md`publishing, scheduling and creations over ${s.spendThreshold} credits need an approver`;
}

/** "brand: any of @bo · legal: all of @&legal", in order, from the workspace policy. */
function stagesText(s: ChannelSettings): CardText {
  return joinText(
    stagesOf(s).map(
      (st) =>
        md`${literal(st.name)}: ${st.all ? md`all` : md`any`} of ${formatMentions(st.approvers, md`nobody yet`)}`,
    ),
    md` → `,
  );
}

export { roleVerb } from './setting-change.js';

/** "12 hours", "90 minutes", "2 days". */
export function formatDuration(ms: number): CardText {
  const minutes = Math.round(ms / 60_000);
  const unit = (n: number, word: string) => md`${n} ${literal(word)}${n === 1 ? md`` : md`s`}`;
  if (minutes % (24 * 60) === 0) return unit(minutes / (24 * 60), 'day');
  if (minutes % 60 === 0) return unit(minutes / 60, 'hour');
  return unit(minutes, 'minute');
}
