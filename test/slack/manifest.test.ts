/**
 * `manifest.yml` against Slack's documented manifest structure
 * (https://docs.slack.dev/reference/app-manifest): required keys and limits, the `/reel` command,
 * the bot scopes the adapter asks for (no more), interactivity, the Home tab and its event, Socket Mode.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_EVENTS, BOT_SCOPE_NAMES } from '../../adapters/slack/scopes.js';
import { parseYaml } from './mini-yaml.js';

type Json = Record<string, unknown>;
const manifest = parseYaml(readFileSync(join(import.meta.dirname, '../../manifest.yml'), 'utf8')) as Json;
const at = (path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Json | undefined)?.[k], manifest);

/** Top-level keys the manifest schema defines. */
const KNOWN_TOP = [
  '_metadata',
  'display_information',
  'settings',
  'features',
  'oauth_config',
  'functions',
  'workflows',
  'outgoing_domains',
  'types',
  'datastores',
  'app_directory',
];

describe('manifest.yml', () => {
  it('has only documented top-level keys and the required display information', () => {
    for (const key of Object.keys(manifest)) expect(KNOWN_TOP).toContain(key);
    expect(at('_metadata.major_version')).toBe(2);
    const name = at('display_information.name') as string;
    expect(name.length).toBeGreaterThan(0);
    expect(name.length).toBeLessThanOrEqual(35);
    expect((at('display_information.description') as string).length).toBeLessThanOrEqual(140);
    const long = at('display_information.long_description') as string;
    expect(long.length).toBeGreaterThanOrEqual(175);
    expect(long.length).toBeLessThanOrEqual(4000);
    expect(at('display_information.background_color')).toMatch(/^#[0-9a-fA-F]{6}$/);
  });

  it('declares the /reel command within the documented limits', () => {
    const commands = at('features.slash_commands') as Json[];
    expect(commands).toHaveLength(1);
    const reel = commands[0] as Json;
    expect(reel.command).toBe('/reel');
    expect((reel.description as string).length).toBeLessThanOrEqual(2000);
    expect((reel.usage_hint as string).length).toBeLessThanOrEqual(1000);
    // Mentions arrive as <@U…> (approvers, roles); the adapter undoes link and entity escaping.
    expect(reel.should_escape).toBe(true);
    const bot = at('features.bot_user') as Json;
    expect((bot.display_name as string).length).toBeLessThanOrEqual(80);
  });

  it('asks for exactly the bot scopes the adapter uses, and no user scopes', () => {
    const scopes = at('oauth_config.scopes.bot') as string[];
    expect([...scopes].sort()).toEqual([...BOT_SCOPE_NAMES].sort());
    expect(at('oauth_config.scopes.user')).toBeUndefined();
    // Group approvers and roles: who is in a user group (read-only; membership is never changed).
    expect(scopes).toContain('usergroups:read');
  });

  it('turns on interactivity, the Home tab with its event, and Socket Mode', () => {
    expect(at('settings.interactivity.is_enabled')).toBe(true);
    expect(at('settings.socket_mode_enabled')).toBe(true);
    expect(at('features.app_home.home_tab_enabled')).toBe(true);
    expect([...(at('settings.event_subscriptions.bot_events') as string[])].sort()).toEqual(
      [...BOT_EVENTS].sort(),
    );
    expect(at('settings.org_deploy_enabled')).toBe(false);
    // Socket Mode needs no request URLs; HTTP mode's are documented in the file's header.
    expect(at('settings.event_subscriptions.request_url')).toBeUndefined();
    expect(at('settings.interactivity.request_url')).toBeUndefined();
  });

  it('is parsed whole (the reader refuses what it does not understand)', () => {
    expect(() => parseYaml('a:\n  b: [1, 2]\n')).toThrow(/unsupported/);
    expect(() => parseYaml('a: 1\na: 2\n')).toThrow(/duplicate/);
    expect(parseYaml('a:\n  - x: 1\n    y: "two"\n  - z\n')).toEqual({ a: [{ x: 1, y: 'two' }, 'z'] });
  });
});
