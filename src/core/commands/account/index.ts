import type { CommandModule } from '../../parse/command-spec.js';
import { accountsCommand } from './accounts.js';
import { analyticsAccountAction, analyticsCommand } from './analytics.js';
import { assetCommand } from './asset.js';
import { creditsCommand, creditsPageAction } from './credits.js';
import { helpCommand } from './help.js';
import { homeCommand } from './home.js';
import { HOME_ACTIONS } from './home-actions.js';
import { linkCommand, linkFormSpec } from './link.js';
import { notifyCommand } from './notify.js';
import { optionsCommand } from './options.js';
import { settingsCommand } from './settings.js';
import { subscribeCommand } from './subscribe.js';
import { tzCommand } from './tz.js';
import { tzPickAction } from './tz-question.js';
import { unlinkCommand } from './unlink.js';
import { unsubscribeCommand } from './unsubscribe.js';
import { voicesCommand } from './voices.js';
import { whoamiCommand } from './whoami.js';

/** The account, catalog and channel commands, their buttons and forms (help lists them in this order). */
export const accountModule: CommandModule = {
  commands: [
    linkCommand,
    unlinkCommand,
    homeCommand,
    whoamiCommand,
    creditsCommand,
    voicesCommand,
    optionsCommand,
    accountsCommand,
    assetCommand,
    analyticsCommand,
    subscribeCommand,
    unsubscribeCommand,
    settingsCommand,
    tzCommand,
    notifyCommand,
    helpCommand,
  ],
  actions: [creditsPageAction, tzPickAction, analyticsAccountAction, ...HOME_ACTIONS],
  forms: [linkFormSpec],
};
