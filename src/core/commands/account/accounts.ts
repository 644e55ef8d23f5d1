/**
 * `accounts`: the social accounts connected to the team, per platform (cached a few minutes). Connecting
 * happens in the dashboard (OAuth), so empty platforms say so.
 */

import { defineCommand } from '../../parse/command-spec.js';
import { PLATFORM_NAMES } from '../../platforms/names.js';
import type { Field } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { code, command, hole, joinText, literal, md } from '../../text/text.js';
import { PLATFORMS } from '../../video-api/video-api.js';

export const accountsCommand = defineCommand({
  name: 'accounts',
  summary: 'List the social accounts connected to your team',
  options: [],
  examples: ['accounts'],
  details: md`Accounts are connected in the dashboard. With several accounts on a platform, pick one with ${command('publish', [hole('video'), hole('platform')], { account: hole('name') })}; ⭐ marks the default.`,
  async run(ctx) {
    const accounts = await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId());
    const platforms = [
      ...PLATFORMS,
      ...Object.keys(accounts).filter((p) => !(PLATFORMS as readonly string[]).includes(p)),
    ];
    const fields: Field[] = platforms.map((p) => {
      const list = accounts[p] ?? [];
      return {
        label: literal(PLATFORM_NAMES[p] ?? p),
        value:
          list.length === 0
            ? md`_not connected_`
            : joinText(
                list.map(
                  (a) => md`• ${literal(a.label)}${a.isDefault ? md` ⭐ default` : md``} · ${code(a.authId)}`,
                ),
                '\n',
              ),
        short: true,
      };
    });
    const connected = platforms.filter((p) => (accounts[p] ?? []).length > 0).length;
    return message({
      title: md`Connected accounts`,
      tone: connected === 0 ? 'warning' : 'info',
      text:
        connected === 0
          ? md`No social account is connected yet. Connect them in the dashboard, then publish with ${command('publish')}.`
          : md`${connected} of ${platforms.length} platforms connected.`,
      fields,
      context: md`Connect or remove accounts in the dashboard.`,
    });
  },
});
