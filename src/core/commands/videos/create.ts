/**
 * `create [--voice V] [--model M] [--style S] [--language L] [--name N] [--music] [--master-style T]
 * [--negative T] [script…]`: prices the video and asks for confirmation (cost and balance) before anything
 * is charged. No script opens the form (the common inputs; the rest is the cost card's "More options").
 */

import { userError } from '../../dispatch/context.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { message } from '../../text/cards.js';
import { command, md } from '../../text/text.js';
import { MODELS } from '../../video-api/video-api.js';
import {
  DIRECTIVE_MAX,
  NAME_MAX,
  prepareCreate,
  SCRIPT_MAX,
  SCRIPT_MIN,
} from '../../videos/create-request.js';
import { createForm } from './create-form.js';
import { scriptFromLink } from './create-from.js';

export const createCommand: CommandSpec = defineCommand({
  name: 'create',
  summary: 'Create a narrated AI video from a script (shows cost and balance first)',
  options: [
    {
      name: 'script',
      kind: 'text',
      positional: true,
      rest: true,
      maxLength: SCRIPT_MAX,
      description: `The finished script, ${SCRIPT_MIN} to ${SCRIPT_MAX.toLocaleString('en-US')} characters (leave it out to open a form)`,
    },
    { name: 'voice', kind: 'voice', description: 'Voice name or id (default: the recommended voice)' },
    {
      name: 'model',
      kind: 'choice',
      choices: MODELS,
      description: 'storyboard (20), motion_lite (50) or motion_pro (100 credits)',
    },
    {
      name: 'style',
      kind: 'string',
      catalog: 'styles',
      description: `Visual style, see ${command('options', ['styles'])}`,
    },
    {
      name: 'language',
      kind: 'string',
      catalog: 'languages',
      description: `Spoken language, see ${command('options', ['languages'])}`,
    },
    {
      name: 'name',
      kind: 'string',
      maxLength: NAME_MAX,
      description: 'Video name (default: the start of the script)',
    },
    { name: 'music', kind: 'boolean', description: 'Add background music' },
    {
      name: 'from-file',
      kind: 'string',
      description: 'Link to a .txt or .md file shared here: its text is the script',
    },
    {
      name: 'master-style',
      kind: 'text',
      advanced: true,
      maxLength: DIRECTIVE_MAX,
      description: 'Style directive applied to every scene, e.g. "grainy 16mm film, warm light"',
    },
    {
      name: 'negative',
      kind: 'text',
      advanced: true,
      maxLength: DIRECTIVE_MAX,
      description: 'Things to avoid in every scene, e.g. "text, logos, blurry faces"',
    },
  ],
  examples: [
    'create --model motion_lite --voice Aria Five facts about octopuses you never knew…',
    'create --language es --name "Datos curiosos" Los pulpos tienen tres corazones…',
    'create --master-style "grainy 16mm film" --negative "text, logos" A day in the life of a lighthouse keeper…',
    'create',
  ],
  details: md`I show the model’s cost and your team’s balance before charging; press **Create** to start (**More options** there sets the name, master style and negative prompt). The status card then follows the video in this channel: progress, thumbnails, render.`,
  form: (ctx, partial) => createForm(ctx, partial),
  async run(ctx, args) {
    if (args['from-file']?.trim()) {
      if (args.script?.trim()) throw userError('extra-arg', { value: args.script.trim().slice(0, 40) });
      args = { ...args, script: await scriptFromLink(ctx, args['from-file']) };
    }
    if (!args.script?.trim()) {
      return createForm(ctx, args);
    }
    return message(
      await prepareCreate(ctx, {
        script: args.script,
        voice: args.voice,
        model: args.model,
        style: args.style,
        language: args.language,
        name: args.name,
        music: args.music,
        masterStyle: args['master-style'],
        negative: args.negative,
      }),
    );
  },
});
